import type { WarehouseDriver } from './driver';
import { LazyDriver } from './lazy-driver';

describe('LazyDriver', () => {
  it('loads the driver once, on first use, and hands every call to it', async () => {
    const real = {
      engine: 'duckdb',
      testConnection: jest.fn(async () => undefined),
      describe: jest.fn(async () => ({ tables: [] })),
      query: jest.fn(async () => ({ columns: [], rows: [[1]] })),
      stream: jest.fn(),
      poolInfo: jest.fn(() => ({ numConnections: 1, numIdleConnections: 1, numBusyConnections: 0, numWaiting: 0, maxPoolSize: 4 })),
      close: jest.fn(async () => undefined),
    } as unknown as WarehouseDriver;
    const load = jest.fn(async () => real);
    const lazy = new LazyDriver('duckdb', load);
    expect(lazy.poolInfo().maxPoolSize).toBe(0);
    await lazy.close(); // nothing loaded: nothing to close, nothing loaded for it
    expect(load).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([lazy.query('SELECT 1', [], { readOnly: true }), lazy.describe()]);
    expect(a.rows).toEqual([[1]]);
    expect(b).toEqual({ tables: [] });
    expect(load).toHaveBeenCalledTimes(1);
    expect(real.query).toHaveBeenCalledWith('SELECT 1', [], { readOnly: true });
    expect(lazy.poolInfo().maxPoolSize).toBe(4);
    // Loaded: a call reaches the driver at once, not a tick later (a query queues for the pool when called).
    void lazy.query('SELECT 2');
    expect(real.query).toHaveBeenLastCalledWith('SELECT 2', undefined, undefined);
    await lazy.close();
    expect(real.close).toHaveBeenCalledTimes(1);
  });
});
