import { QueryCancelledError, QueueTimeoutError } from '../../query-engine/execute/drivers/errors';
import { FairQueue, SlotOwner, WaitOutcome } from './fair-queue';

/** A slot request whose state can be read synchronously once pending promise callbacks have run (see settle()). */
function track(p: Promise<() => void>) {
  const t: { state: 'waiting' | 'running' | 'failed'; release: () => void; error?: unknown } = { state: 'waiting', release: () => {} };
  p.then(
    (release) => Object.assign(t, { state: 'running', release }),
    (error: unknown) => Object.assign(t, { state: 'failed', error }),
  );
  return t;
}

/** Lets the promise callbacks queued so far run (no timers involved). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function queueOf(capacity: number, perOwner = capacity, maxWaitMs = 30_000) {
  const waits: Array<[WaitOutcome, number]> = [];
  const queue = new FairQueue({ capacity, perOwner: () => perOwner, maxWaitMs }, (outcome, ms) => waits.push([outcome, ms]));
  const take = (owner: SlotOwner, signal?: AbortSignal) => track(queue.acquire(owner, signal));
  return { queue, take, waits };
}

describe('FairQueue', () => {
  it('runs queries at once while there is room, and queues those past the owner’s own limit until one ends', async () => {
    const { queue, take } = queueOf(4, 2);
    const [a1, a2, a3] = [take(1), take(1), take(1)];
    const b = take(2);
    await settle();
    expect([a1.state, a2.state, a3.state, b.state]).toEqual(['running', 'running', 'waiting', 'running']);
    expect(queue.stats()).toMatchObject({ running: 3, waiting: 1, waitingOwners: 1 });
    a1.release();
    a1.release(); // a second call gives nothing back twice
    await settle();
    expect(a3.state).toBe('running');
    expect([queue.runningFor(1), queue.runningFor(2), queue.stats().running]).toEqual([2, 1, 3]);
  });

  it('gives a freed slot to another owner’s single query before the rest of one owner’s burst', async () => {
    const { queue, take } = queueOf(2);
    const burst = Array.from({ length: 10 }, () => take('burst'));
    await settle();
    const single = take('single');
    await settle();
    expect(burst.map((q) => q.state).filter((s) => s === 'running')).toHaveLength(2);
    expect(single.state).toBe('waiting');
    burst[0].release();
    await settle();
    // The next slot is the single query's, though eight of the burst came first.
    expect(single.state).toBe('running');
    expect([queue.runningFor('burst'), queue.stats().waiting]).toEqual([1, 8]);
    // Then the burst goes on, in the order it came.
    single.release();
    burst[1].release();
    await settle();
    expect(burst.map((q) => q.state)).toEqual(['running', 'running', 'running', 'running', ...Array(6).fill('waiting')]);
  });

  it('serves waiting owners in turn, each owner’s queries in the order they came', async () => {
    const { take } = queueOf(1);
    const first = take('x');
    const order: string[] = [];
    const waiting = ['a1', 'a2', 'a3', 'b1', 'c1', 'b2'].map((name) => ({ name, q: take(name[0]) }));
    await settle();
    let running = first;
    for (let i = 0; i < waiting.length; i++) {
      running.release();
      await settle();
      const next = waiting.find((w) => w.q.state === 'running' && !order.includes(w.name))!;
      order.push(next.name);
      running = next.q;
    }
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('answers QueueTimeoutError after the longest wait, and the query never takes a slot', async () => {
    jest.useFakeTimers();
    try {
      const { queue, take, waits } = queueOf(1, 1, 30_000);
      const running = take(1);
      const waiting = take(2);
      await jest.advanceTimersByTimeAsync(29_999);
      expect(waiting.state).toBe('waiting');
      expect(queue.stats()).toMatchObject({ waiting: 1, longestWaitMs: 29_999 });
      await jest.advanceTimersByTimeAsync(1);
      expect(waiting.state).toBe('failed');
      expect(waiting.error).toBeInstanceOf(QueueTimeoutError);
      expect((waiting.error as Error).message).toBe(
        'Timed out waiting for a turn to run the query (waited 30 seconds). Try again shortly.',
      );
      expect(queue.stats()).toMatchObject({ running: 1, waiting: 0, longestWaitMs: 0 });
      running.release();
      expect(queue.stats().running).toBe(0);
      expect(waits).toEqual([
        ['ran', 0],
        ['timed-out', 30_000],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('lets a query whose caller left go at once, without a slot, and keeps the others’ places', async () => {
    const { queue, take, waits } = queueOf(1);
    const running = take(1);
    const left = new AbortController();
    const leaving = take(2, left.signal);
    const staying = take(3);
    await settle();
    left.abort();
    await settle();
    expect(leaving.state).toBe('failed');
    expect(leaving.error).toBeInstanceOf(QueryCancelledError);
    expect(queue.stats()).toMatchObject({ running: 1, waiting: 1 });
    running.release();
    await settle();
    expect([staying.state, queue.runningFor(2), queue.runningFor(3)]).toEqual(['running', 0, 1]);
    expect(waits.map(([outcome]) => outcome)).toEqual(['ran', 'left', 'ran']);
    // A caller that has already gone is never queued.
    const gone = take(4, AbortSignal.abort());
    await settle();
    expect([gone.state, queue.stats().waiting]).toEqual(['failed', 0]);
  });

  it('follows a change of capacity', async () => {
    const limits = { capacity: 1, perOwner: () => 5, maxWaitMs: 1000 };
    const queue = new FairQueue(limits);
    const [a, b] = [track(queue.acquire(1)), track(queue.acquire(1))];
    await settle();
    expect([a.state, b.state]).toEqual(['running', 'waiting']);
    limits.capacity = 2;
    a.release();
    const c = track(queue.acquire(2));
    await settle();
    expect([b.state, c.state]).toEqual(['running', 'running']);
  });
});
