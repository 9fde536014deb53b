import { setTimeout as sleep } from 'node:timers/promises';
import {
  PoolTimeoutError,
  QueryCancelledError,
  QueryTimeoutError,
  type Engine,
  type WarehouseDriver,
} from '../../src/query-engine/execute/drivers';
import { until } from '../support/until';
import { availableEngines, freshWarehouse, stillRunning, type TestWarehouse } from '../support/warehouses';

/** Statements that run for many seconds unless stopped. The marker lets us look for them on the server. */
const MARKER = 'wh_long_marker';
const LONG: Record<Engine, string> = {
  postgres: `SELECT pg_sleep(20) AS ${MARKER}`,
  mysql: `SELECT SLEEP(20) AS ${MARKER}`,
  duckdb: `SELECT count(*) AS ${MARKER} FROM range(100000000) a, range(100000000) b WHERE a.range + b.range = 7`,
  sqlite: `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) AS ${MARKER} FROM c`,
};

const one = (engine: Engine) => (engine === 'postgres' ? 'SELECT CAST(? AS INTEGER) AS n' : 'SELECT ? AS n');

describe.each(availableEngines())('%s cancellation, timeouts and pool', (engine: Engine) => {
  let wh: TestWarehouse;

  beforeAll(async () => {
    wh = await freshWarehouse(engine);
    if (engine === 'duckdb') await wh.driver({ writable: true }).query('CREATE TABLE t (x INTEGER)');
  });

  afterAll(async () => {
    await wh?.drop();
  });

  async function startLong(driver: WarehouseDriver, signal: AbortSignal) {
    const running = driver.query(LONG[engine], [], { signal, readOnly: true }).catch((e: unknown) => e);
    await until(() => driver.poolInfo().numBusyConnections === 1);
    // Let the statement reach the database: seen there on the servers; the file engines get a moment to start.
    if (engine === 'postgres' || engine === 'mysql')
      await until(async () => (await stillRunning(wh, ['wh_long_', 'marker'])) === 1, 30_000);
    else await sleep(engine === 'sqlite' ? 300 : 200);
    // Wrapped: returning the promise itself from an async function would wait for it.
    return { outcome: running };
  }

  it('cancels a running statement on the database and keeps the pool usable', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const ac = new AbortController();
    const { outcome } = await startLong(driver, ac.signal);
    if (engine === 'postgres' || engine === 'mysql') expect(await stillRunning(wh, ['wh_long_', 'marker'])).toBe(1);
    const started = Date.now();
    ac.abort();
    expect(await outcome).toBeInstanceOf(QueryCancelledError);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await stillRunning(wh, ['wh_long_', 'marker'])).toBe(0);
    expect((await driver.query(one(engine), [7])).rows).toEqual([[7]]);
    expect(driver.poolInfo()).toMatchObject({ numBusyConnections: 0, numWaiting: 0, maxPoolSize: 1 });
  });

  it('stops a statement that runs past its timeout', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const started = Date.now();
    await expect(driver.query(LONG[engine], [], { timeoutMs: 300, readOnly: true })).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await stillRunning(wh, ['wh_long_', 'marker'])).toBe(0);
    expect((await driver.query(one(engine), [8], { timeoutMs: 5000 })).rows).toEqual([[8]]);
  });

  it('queues requests beyond the pool size, and times out or cancels the wait', async () => {
    const driver = wh.driver({ maxPoolSize: 1, acquireTimeoutMs: 300 });
    const ac = new AbortController();
    const long = (await startLong(driver, ac.signal)).outcome;

    const waiting = driver.query(one(engine), [1]);
    expect(driver.poolInfo()).toMatchObject({ numWaiting: 1, numBusyConnections: 1, maxPoolSize: 1 });
    await expect(waiting).rejects.toBeInstanceOf(PoolTimeoutError);
    await expect(driver.query(one(engine), [1])).rejects.toThrow('Timed out waiting for a connection from the pool');

    const leaving = new AbortController();
    const abandoned = driver.query(one(engine), [1], { signal: leaving.signal });
    leaving.abort();
    await expect(abandoned).rejects.toBeInstanceOf(QueryCancelledError);

    ac.abort();
    expect(await long).toBeInstanceOf(QueryCancelledError);
    // The same pool serves again after the cancel (opening a fresh connection is not counted as waiting).
    expect((await driver.query(one(engine), [7])).rows).toEqual([[7]]);
  });

  it('serves queued requests in order once a connection frees up', async () => {
    // A generous wait limit: on a loaded machine, opening a connection may take a while (tests must not be timing-bound).
    const driver = wh.driver({ maxPoolSize: 1, acquireTimeoutMs: 30_000 });
    const queued = await Promise.all([1, 2, 3].map((n) => driver.query(one(engine), [n])));
    expect(queued.map((r) => r.rows)).toEqual([[[1]], [[2]], [[3]]]);
    expect(driver.poolInfo()).toMatchObject({ numConnections: 1, numIdleConnections: 1, numWaiting: 0 });
  });
});
