import { ConnectionError, PoolTimeoutError, QueryCancelledError } from './errors';
import { ResourcePool } from './resource-pool';

interface Conn {
  id: number;
  usable: boolean;
}

/** A factory whose connections are numbered, with hooks to fail a creation or hold it until released. */
function factory() {
  let next = 1;
  const destroyed: number[] = [];
  const f = {
    destroyed,
    failNext: null as Error | null,
    create: jest.fn(async (): Promise<Conn> => {
      if (f.failNext) {
        const e = f.failNext;
        f.failNext = null;
        throw e;
      }
      return { id: next++, usable: true };
    }),
    destroy: jest.fn((c: Conn) => void destroyed.push(c.id)),
    isUsable: (c: Conn) => c.usable,
  };
  return f;
}

const settle = <T>(p: Promise<T>) =>
  p.then(
    (v) => ({ ok: v }),
    (e: unknown) => ({ err: e }),
  );

describe('ResourcePool', () => {
  it('creates up to max, then reuses the most recently released first', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 2, acquireTimeoutMs: 1000, idleTimeoutMs: 60_000 });
    const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
    expect([a.id, b.id]).toEqual([1, 2]);
    pool.release(a);
    pool.release(b);
    expect((await pool.acquire()).id).toBe(2);
    expect(pool.info()).toEqual({ numConnections: 2, numIdleConnections: 1, numBusyConnections: 1, numWaiting: 0, maxPoolSize: 2 });
    expect(f.create).toHaveBeenCalledTimes(2);
    await pool.close();
  });

  it('queues beyond max in order and hands each released connection to the first waiter', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 1, acquireTimeoutMs: 5000, idleTimeoutMs: 60_000 });
    const held = await pool.acquire();
    const order: string[] = [];
    const first = pool.acquire().then((c) => (order.push('first'), c));
    const second = pool.acquire().then((c) => (order.push('second'), c));
    expect(pool.info().numWaiting).toBe(2);
    pool.release(held);
    const c1 = await first;
    expect(c1).toBe(held);
    pool.release(c1);
    expect(await second).toBe(held);
    expect(order).toEqual(['first', 'second']);
    expect(f.create).toHaveBeenCalledTimes(1);
    await pool.close();
  });

  it('times a wait out with PoolTimeoutError and forgets the waiter', async () => {
    jest.useFakeTimers();
    try {
      const pool = new ResourcePool(factory(), { max: 1, acquireTimeoutMs: 300, idleTimeoutMs: 60_000 });
      const held = await pool.acquire();
      const waiting = settle(pool.acquire());
      await jest.advanceTimersByTimeAsync(299);
      expect(pool.info().numWaiting).toBe(1);
      await jest.advanceTimersByTimeAsync(1);
      expect((await waiting) as { err: unknown }).toEqual({ err: expect.any(PoolTimeoutError) });
      expect(pool.info().numWaiting).toBe(0);
      // The connection released later goes back to idle, not to the waiter that left.
      pool.release(held);
      expect(pool.info()).toMatchObject({ numIdleConnections: 1, numBusyConnections: 0 });
      await pool.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('cancels a wait when its signal aborts, and refuses at once an already aborted signal', async () => {
    const pool = new ResourcePool(factory(), { max: 1, acquireTimeoutMs: 60_000, idleTimeoutMs: 60_000 });
    const held = await pool.acquire();
    const ac = new AbortController();
    const waiting = settle(pool.acquire(ac.signal));
    ac.abort();
    expect(await waiting).toEqual({ err: expect.any(QueryCancelledError) });
    await expect(pool.acquire(ac.signal)).rejects.toBeInstanceOf(QueryCancelledError);
    expect(pool.info().numWaiting).toBe(0);
    pool.release(held);
    await pool.close();
  });

  it('destroys a discarded connection and opens a new one for the next waiter', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 1, acquireTimeoutMs: 5000, idleTimeoutMs: 60_000 });
    const broken = await pool.acquire();
    const waiting = pool.acquire();
    pool.discard(broken);
    expect((await waiting).id).toBe(2);
    expect(f.destroyed).toEqual([1]);
    await pool.close();
  });

  it('passes a failed creation to its caller and frees the slot for the next', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 1, acquireTimeoutMs: 5000, idleTimeoutMs: 60_000 });
    f.failNext = new ConnectionError('refused');
    await expect(pool.acquire()).rejects.toThrow('refused');
    expect((await pool.acquire()).id).toBe(1);
    expect(pool.info()).toMatchObject({ numConnections: 1, numBusyConnections: 1 });
    await pool.close();
  });

  it('never hands out a connection the server dropped while it was idle', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 2, acquireTimeoutMs: 5000, idleTimeoutMs: 60_000 });
    const c = await pool.acquire();
    pool.release(c);
    c.usable = false;
    expect((await pool.acquire()).id).toBe(2);
    expect(f.destroyed).toEqual([1]);
    await pool.close();
  });

  it('closes idle connections after idleTimeoutMs', async () => {
    jest.useFakeTimers();
    try {
      const f = factory();
      const pool = new ResourcePool(f, { max: 2, acquireTimeoutMs: 5000, idleTimeoutMs: 10_000 });
      const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
      pool.release(a);
      await jest.advanceTimersByTimeAsync(6_000);
      pool.release(b);
      await jest.advanceTimersByTimeAsync(10_000);
      // The reaper looks every 5 s: at 15 s, a had been idle 15 s and b 9 s.
      expect(f.destroyed).toEqual([1]);
      expect(pool.info()).toMatchObject({ numConnections: 1, numIdleConnections: 1 });
      await pool.close();
    } finally {
      jest.useRealTimers();
    }
  });

  it('drains on close: waiters fail, idle ones close now, busy ones when they come back, new requests fail', async () => {
    const f = factory();
    const pool = new ResourcePool(f, { max: 2, acquireTimeoutMs: 60_000, idleTimeoutMs: 60_000 });
    const [a, b] = await Promise.all([pool.acquire(), pool.acquire()]);
    pool.release(a);
    const [c] = [await pool.acquire()];
    const waiting = settle(pool.acquire());
    await pool.close();
    expect(await waiting).toEqual({ err: expect.any(ConnectionError) });
    expect(f.destroyed).toEqual([]);
    pool.release(b);
    pool.release(c);
    expect(f.destroyed.sort()).toEqual([1, 2]);
    await expect(pool.acquire()).rejects.toThrow('The connection pool is closed.');
  });
});
