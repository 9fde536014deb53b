import type { RowStream } from './drivers/driver';
import { QueryCancelledError } from './drivers/errors';

/**
 * Rows a run keeps so that a caller arriving after its first rows can still read it from the start: the row cap of
 * every query but exports (2,000), so a dashboard's or an ad-hoc result is joinable while it runs. Past this many the
 * run is no longer joined and keeps only the rows its slowest reader has yet to read.
 */
export const REPLAY_ROWS = 2000;
/** Once a run is no longer joinable, how many batches its fastest reader may get ahead of its slowest. */
export const AHEAD_BATCHES = 2;

/**
 * Opens the run's rows, waiting for its query slot first where there are slots (and calling `admitted` once it has
 * one); `signal` aborts when no one reads any more.
 */
export type StartRun = (signal: AbortSignal, admitted: () => void) => Promise<RowStream>;

/** Whose query slots a caller's runs take (QuerySlots): a user id, or a shared object's name. */
export type RunOwner = number | string;

export interface SharedRunsOptions {
  replayRows?: number;
  aheadBatches?: number;
  /** Told each time a query joins a run in flight (metrics). */
  joined?(dbId: number): void;
}

/**
 * One warehouse run for identical queries in flight. The caller says what makes queries identical (the key: the
 * database's driver, the SQL, its bound values, the row cap, and who may share: see QueryProcessor's execute
 * stage); a query whose key matches a joinable run reads that run's rows instead of starting its own. A run still
 * waiting for its query slot is joined only by callers of the same slots' owner: a user's single query never waits
 * in the line of another user's burst because it is identical to one of its queries (it starts its own run, and
 * callers after it may join either).
 *
 * Rows are shared, not copied: every reader gets the same batches. A run keeps its batches while it is joinable
 * (until REPLAY_ROWS rows), so a late joiner replays them and then follows; after that it keeps only the batches
 * between its slowest and its fastest reader (at most AHEAD_BATCHES ahead), so a large result is never held whole:
 * the readers of a large result move together, at the pace of the slowest. A reader that leaves (its signal aborts,
 * it closes, or it stops iterating) does not disturb the others; when the last one leaves before the end, the run is
 * cancelled (its signal aborts: the query leaves the queue, or is cancelled on the database) and closed.
 */
export class SharedRuns {
  /** Joinable runs by driver and key (rarely more than one per key: see the class comment). */
  private readonly runs = new WeakMap<object, Map<string, Run[]>>();

  constructor(private readonly options: SharedRunsOptions = {}) {}

  /**
   * The rows of the run of `key` on `driver`: a joinable one in flight, else a new one opened with `start`, whose
   * query slots are `owner`'s.
   */
  stream(where: { driver: object; dbId: number }, key: string, owner: RunOwner, start: StartRun, signal: AbortSignal): Promise<RowStream> {
    if (signal.aborted) return Promise.reject(new QueryCancelledError());
    let byKey = this.runs.get(where.driver);
    if (!byKey) this.runs.set(where.driver, (byKey = new Map()));
    const runs = byKey;
    let run = runs.get(key)?.find((r) => r.mayJoin(owner));
    if (run) {
      this.options.joined?.(where.dbId);
    } else {
      const limits = { replayRows: this.options.replayRows ?? REPLAY_ROWS, aheadBatches: this.options.aheadBatches ?? AHEAD_BATCHES };
      const created: Run = new Run(start, owner, limits, () => {
        const left = runs.get(key)?.filter((r) => r !== created) ?? [];
        if (left.length) runs.set(key, left);
        else runs.delete(key);
      });
      runs.set(key, [...(runs.get(key) ?? []), created]);
      run = created;
    }
    return run.subscribe(signal);
  }

  /** Joinable runs on `driver`, and the callers reading them (diagnostics and tests). */
  stats(driver: object): { runs: number; readers: number } {
    const runs = [...(this.runs.get(driver)?.values() ?? [])].flat();
    return { runs: runs.length, readers: runs.reduce((n, r) => n + r.readerCount(), 0) };
  }
}

interface Reader {
  /** Sequence number of the next batch this reader gets. */
  at: number;
  done: boolean;
  signal: AbortSignal;
  onAbort(): void;
}

/** One warehouse run and its readers. */
class Run {
  private readonly controller = new AbortController();
  private readonly ready: Promise<RowStream>;
  private source: RowStream | null = null;
  private iterator: AsyncIterator<unknown[][]> | null = null;
  private readonly readers = new Set<Reader>();
  /** Batches kept; `first` is the sequence number of batches[0]. */
  private readonly batches: unknown[][][] = [];
  private first = 0;
  private keptRows = 0;
  private joinable = true;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private reading = false;
  /** Holds its query slot (or needs none): anyone of its scope may join it from then on. */
  private admitted = false;
  /** Readers waiting for something to change (a new batch, the end, a reader moving on or leaving). */
  private waiters: Array<() => void> = [];

  constructor(
    start: StartRun,
    private readonly owner: RunOwner,
    private readonly limits: { replayRows: number; aheadBatches: number },
    private readonly forget: () => void,
  ) {
    this.ready = start(this.controller.signal, () => (this.admitted = true));
    this.ready.then(
      (source) => {
        this.source = source;
        this.iterator = source.batches[Symbol.asyncIterator]();
        // Everyone left while it was opening: nothing will read it.
        if (!this.readers.size) void this.stop();
      },
      () => this.forget(),
    );
  }

  readerCount(): number {
    return this.readers.size;
  }

  /** Until it has its query slot, only callers whose slots it would take join it. */
  mayJoin(owner: RunOwner): boolean {
    return this.admitted || owner === this.owner;
  }

  async subscribe(signal: AbortSignal): Promise<RowStream> {
    const reader: Reader = { at: 0, done: false, signal, onAbort: () => void this.leave(reader) };
    this.readers.add(reader);
    signal.addEventListener('abort', reader.onAbort, { once: true });
    let source: RowStream;
    try {
      source = await untilAborted(this.ready, signal);
    } catch (e) {
      await this.leave(reader);
      throw e;
    }
    return { columns: source.columns, batches: this.read(reader), close: () => this.leave(reader) };
  }

  private async *read(reader: Reader): AsyncGenerator<unknown[][]> {
    try {
      for (;;) {
        if (reader.done) throw new QueryCancelledError();
        const i = reader.at - this.first;
        if (i < this.batches.length) {
          const batch = this.batches[i];
          reader.at++;
          this.trim();
          this.notify();
          yield batch;
          continue;
        }
        if (this.failure) throw this.failure.error;
        if (this.ended) return;
        await this.next();
      }
    } finally {
      await this.leave(reader);
    }
  }

  /** Waits for a change; reads the next batch first when it may (no one else is reading, and no reader is too far behind). */
  private next(): Promise<void> {
    const changed = new Promise<void>((resolve) => this.waiters.push(resolve));
    if (!this.reading && this.mayReadAhead()) {
      this.reading = true;
      this.iterator!.next().then(
        (r) => {
          if (r.done) this.end();
          else this.keep(r.value);
        },
        (error: unknown) => {
          this.failure = { error };
          this.end();
        },
      );
    }
    return changed;
  }

  private mayReadAhead(): boolean {
    if (this.joinable) return true;
    let slowest = Infinity;
    for (const r of this.readers) slowest = Math.min(slowest, r.at);
    return this.first + this.batches.length - slowest < this.limits.aheadBatches;
  }

  private keep(batch: unknown[][]): void {
    this.reading = false;
    this.batches.push(batch);
    if (this.joinable) {
      this.keptRows += batch.length;
      if (this.keptRows > this.limits.replayRows) {
        this.joinable = false;
        this.forget();
        this.trim();
      }
    }
    this.notify();
  }

  private end(): void {
    this.reading = false;
    this.ended = true;
    this.forget();
    this.notify();
  }

  /** Once the run is not joinable, drops the batches every reader has read. */
  private trim(): void {
    if (this.joinable) return;
    let slowest = this.first + this.batches.length;
    for (const r of this.readers) slowest = Math.min(slowest, r.at);
    if (slowest > this.first) {
      this.batches.splice(0, slowest - this.first);
      this.first = slowest;
    }
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  private async leave(reader: Reader): Promise<void> {
    if (reader.done) return;
    reader.done = true;
    reader.signal.removeEventListener('abort', reader.onAbort);
    this.readers.delete(reader);
    this.trim();
    this.notify();
    if (!this.readers.size && !this.ended) await this.stop();
  }

  /** No one reads any more: the run is cancelled (out of the queue, or on the database) and its rows closed. */
  private async stop(): Promise<void> {
    this.ended = true;
    this.forget();
    this.batches.length = 0;
    this.controller.abort();
    await this.source?.close().catch(() => undefined);
  }
}

/** `promise`, or QueryCancelledError as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new QueryCancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new QueryCancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
