import type { ResultColumn, RowStream } from './drivers/driver';
import { QueryCancelledError, QueryError } from './drivers/errors';
import { SharedRuns, type SharedRunsOptions } from './shared-runs';

const COLUMNS: ResultColumn[] = [{ name: 'n', databaseType: 'integer', baseType: 'type/Integer' }];

/** A driver's rows, handed out one batch at a time as the test pushes them. */
class FakeRows {
  pulls = 0;
  closed = false;
  private readonly ready: Array<IteratorResult<unknown[][]> | { error: unknown }> = [];
  private waiting: ((r: IteratorResult<unknown[][]>) => void) | null = null;
  private failWaiting: ((e: unknown) => void) | null = null;

  readonly stream: RowStream = {
    columns: COLUMNS,
    batches: { [Symbol.asyncIterator]: () => ({ next: () => this.next() }) },
    close: async () => {
      this.closed = true;
      this.failWaiting?.(new QueryCancelledError());
    },
  };

  push(...batches: unknown[][][]): void {
    for (const value of batches) this.deliver({ value, done: false });
  }

  end(): void {
    this.deliver({ value: undefined, done: true });
  }

  fail(error: unknown): void {
    this.deliver({ error });
  }

  private deliver(item: IteratorResult<unknown[][]> | { error: unknown }): void {
    const [resolve, reject] = [this.waiting, this.failWaiting];
    this.waiting = this.failWaiting = null;
    if (!resolve) this.ready.push(item);
    else if ('error' in item) reject!(item.error);
    else resolve(item);
  }

  private next(): Promise<IteratorResult<unknown[][]>> {
    this.pulls++;
    const item = this.ready.shift();
    if (item) return 'error' in item ? Promise.reject(item.error) : Promise.resolve(item);
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failWaiting = reject;
    });
  }
}

/** A run's start: counts calls, keeps the run's signal, and gets its slot (admit) and opens when the test says. */
function starter() {
  const signals: AbortSignal[] = [];
  let open!: (s: RowStream) => void;
  let refuse!: (e: unknown) => void;
  let admitted!: () => void;
  const start = jest.fn((signal: AbortSignal, onAdmitted: () => void) => {
    signals.push(signal);
    admitted = onAdmitted;
    return new Promise<RowStream>((resolve, reject) => {
      open = resolve;
      refuse = reject;
    });
  });
  return { start, signals, admit: () => admitted(), open: (s: RowStream) => open(s), refuse: (e: unknown) => refuse(e) };
}

async function readAll(stream: RowStream): Promise<unknown[][]> {
  const rows: unknown[][] = [];
  for await (const batch of stream.batches) rows.push(...batch);
  return rows;
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
const driver = {};
const where = { driver, dbId: 1 };
const never = () => new AbortController().signal;

function runsWith(options: SharedRunsOptions = {}) {
  const joined = jest.fn();
  return { runs: new SharedRuns({ joined, ...options }), joined };
}

describe('SharedRuns', () => {
  it('runs identical queries in flight once, and every caller gets the same rows', async () => {
    const { runs, joined } = runsWith();
    const { start, open } = starter();
    const rows = new FakeRows();
    const streams = [1, 2, 3].map(() => runs.stream(where, 'q', 1, start, never()));
    expect(start).toHaveBeenCalledTimes(1);
    expect(joined).toHaveBeenCalledTimes(2);
    expect(runs.stats(driver)).toEqual({ runs: 1, readers: 3 });
    open(rows.stream);
    rows.push([[1], [2]], [[3]]);
    rows.end();
    const read = await Promise.all((await Promise.all(streams)).map(readAll));
    expect(read).toEqual([1, 2, 3].map(() => [[1], [2], [3]]));
    // Finished runs are not joined: the next caller runs again.
    void runs.stream(where, 'q', 1, start, never());
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('never joins different keys, nor the same key on another database driver', () => {
    const { runs } = runsWith();
    const { start } = starter();
    void runs.stream(where, 'a', 1, start, never());
    void runs.stream(where, 'b', 1, start, never());
    void runs.stream({ driver: {}, dbId: 2 }, 'a', 1, start, never());
    expect(start).toHaveBeenCalledTimes(3);
  });

  it('lets only callers of its own slots join a run waiting for its slot, and anyone of its scope once it has one', async () => {
    const { runs } = runsWith();
    const { start, admit } = starter();
    void runs.stream(where, 'q', 'burst', start, never());
    void runs.stream(where, 'q', 'burst', start, never());
    expect(start).toHaveBeenCalledTimes(1);
    // Another user's single query does not wait in the burst's line: it runs on its own.
    void runs.stream(where, 'q', 'single', start, never());
    expect(start).toHaveBeenCalledTimes(2);
    expect(runs.stats(driver)).toEqual({ runs: 2, readers: 3 });
    // Once that run has its slot, anyone may join it (the first run, still waiting, is passed over).
    admit();
    void runs.stream(where, 'q', 'third', start, never());
    expect(start).toHaveBeenCalledTimes(2);
    expect(runs.stats(driver)).toEqual({ runs: 2, readers: 4 });
  });

  it('lets a caller join a run whose rows have started, replaying the rows kept', async () => {
    const { runs } = runsWith();
    const { start, open } = starter();
    const rows = new FakeRows();
    const first = runs.stream(where, 'q', 1, start, never());
    open(rows.stream);
    rows.push([[1]]);
    const early = (await first).batches[Symbol.asyncIterator]();
    expect((await early.next()).value).toEqual([[1]]);
    const late = await runs.stream(where, 'q', 1, start, never());
    expect(start).toHaveBeenCalledTimes(1);
    rows.push([[2]]);
    rows.end();
    expect(await readAll(late)).toEqual([[1], [2]]);
    expect((await early.next()).value).toEqual([[2]]);
    expect((await early.next()).done).toBe(true);
  });

  it('past REPLAY_ROWS takes no one new, and its fastest reader waits for its slowest instead of rows piling up', async () => {
    const { runs } = runsWith({ replayRows: 2, aheadBatches: 1 });
    const { start, open } = starter();
    const rows = new FakeRows();
    const streams = [runs.stream(where, 'q', 1, start, never()), runs.stream(where, 'q', 1, start, never())];
    open(rows.stream);
    const [fast, slow] = (await Promise.all(streams)).map((s) => s.batches[Symbol.asyncIterator]());
    rows.push([[1], [2]], [[3], [4]], [[5], [6]]);
    rows.end();
    expect((await fast.next()).value).toEqual([[1], [2]]);
    expect((await fast.next()).value).toEqual([[3], [4]]);
    // 4 rows read: a new caller runs its own.
    void runs.stream(where, 'q', 1, start, never());
    expect(start).toHaveBeenCalledTimes(2);
    const third = fast.next();
    await settle();
    expect(rows.pulls).toBe(2);
    expect((await slow.next()).value).toEqual([[1], [2]]);
    await settle();
    expect(rows.pulls).toBe(2);
    expect((await slow.next()).value).toEqual([[3], [4]]);
    expect((await third).value).toEqual([[5], [6]]);
    expect((await slow.next()).value).toEqual([[5], [6]]);
    expect([(await fast.next()).done, (await slow.next()).done]).toEqual([true, true]);
  });

  it('keeps running for the others when one caller leaves, and cancels the run when the last one does', async () => {
    const { runs } = runsWith();
    const { start, signals, open } = starter();
    const rows = new FakeRows();
    const leaving = new AbortController();
    const gone = runs.stream(where, 'q', 1, start, leaving.signal);
    const staying = runs.stream(where, 'q', 1, start, never());
    const closing = runs.stream(where, 'q', 1, start, never());
    leaving.abort();
    await expect(gone).rejects.toBeInstanceOf(QueryCancelledError);
    expect(signals[0].aborted).toBe(false);
    open(rows.stream);
    rows.push([[1]], [[2]]);
    const closer = await closing;
    await closer.close();
    expect([signals[0].aborted, rows.closed]).toEqual([false, false]);
    const stayer = (await staying).batches[Symbol.asyncIterator]();
    expect((await stayer.next()).value).toEqual([[1]]);
    // The last reader stops half-way: the run is cancelled and its rows closed.
    await stayer.return!();
    expect([signals[0].aborted, rows.closed]).toEqual([true, true]);
    // And it is no longer joined.
    void runs.stream(where, 'q', 1, start, never());
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('cancels a run still waiting to open when every caller has left, and answers each of them at once', async () => {
    const { runs } = runsWith();
    const { start, signals, open } = starter();
    const callers = [new AbortController(), new AbortController()];
    const streams = callers.map((c) => runs.stream(where, 'q', 1, start, c.signal));
    callers[0].abort();
    await expect(streams[0]).rejects.toBeInstanceOf(QueryCancelledError);
    expect(signals[0].aborted).toBe(false);
    callers[1].abort();
    await expect(streams[1]).rejects.toBeInstanceOf(QueryCancelledError);
    expect(signals[0].aborted).toBe(true);
    // Rows that open after all left are closed unread.
    const rows = new FakeRows();
    open(rows.stream);
    await settle();
    expect(rows.closed).toBe(true);
  });

  it('ends a reader that leaves while waiting for rows with QueryCancelledError, as a cancelled driver stream does', async () => {
    const { runs } = runsWith();
    const { start, open } = starter();
    const rows = new FakeRows();
    const leaving = new AbortController();
    const streams = [runs.stream(where, 'q', 1, start, leaving.signal), runs.stream(where, 'q', 1, start, never())];
    open(rows.stream);
    const [left, other] = await Promise.all(streams);
    const reading = readAll(left);
    await settle();
    leaving.abort();
    await expect(reading).rejects.toBeInstanceOf(QueryCancelledError);
    rows.push([[1]]);
    rows.end();
    expect(await readAll(other)).toEqual([[1]]);
  });

  it('fails every caller when the run fails to open, and the next caller starts afresh', async () => {
    const { runs } = runsWith();
    const { start, refuse } = starter();
    const streams = [1, 2].map(() => runs.stream(where, 'q', 1, start, never()));
    const error = new QueryError('relation "nope" does not exist');
    refuse(error);
    for (const s of streams) await expect(s).rejects.toBe(error);
    void runs.stream(where, 'q', 1, start, never());
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('hands a failure after the first rows to every reader, after the rows it got', async () => {
    const { runs } = runsWith();
    const { start, open } = starter();
    const rows = new FakeRows();
    const streams = [1, 2].map(() => runs.stream(where, 'q', 1, start, never()));
    open(rows.stream);
    const error = new QueryError('division by zero');
    rows.push([[1]]);
    rows.fail(error);
    for (const s of await Promise.all(streams)) {
      const got: unknown[][] = [];
      await expect(
        (async () => {
          for await (const batch of s.batches) got.push(...batch);
        })(),
      ).rejects.toBe(error);
      expect(got).toEqual([[1]]);
    }
  });
});
