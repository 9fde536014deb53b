import { STREAM_BATCH_ROWS } from './row-stream';

/**
 * Rows that a database client pushes (one event per row) gathered into batches for a pulling consumer. The
 * source is paused while a full batch waits and resumed when the consumer takes it, so the client reads about
 * one batch ahead and a large result never piles up in memory.
 */
export class RowBatcher {
  /** The source has sent its last row (or failed). */
  ended = false;
  private filling: unknown[][] = [];
  private readonly ready: unknown[][][] = [];
  private error: unknown = null;
  private paused = false;
  private wake: (() => void) | null = null;
  private discarding = false;

  constructor(
    private readonly source: { pause(): void; resume(): void },
    private readonly size = STREAM_BATCH_ROWS,
  ) {}

  add(row: unknown[]): void {
    if (this.discarding) return;
    this.filling.push(row);
    if (this.filling.length < this.size) return;
    this.ready.push(this.filling);
    this.filling = [];
    if (!this.paused) {
      this.paused = true;
      this.source.pause();
    }
    this.signal();
  }

  end(): void {
    this.ended = true;
    if (this.filling.length) this.ready.push(this.filling);
    this.filling = [];
    this.signal();
  }

  fail(e: unknown): void {
    this.error ??= e;
    this.ended = true;
    this.signal();
  }

  /** The next batch, null after the last; throws the source's error (batches before it are handed out first). */
  async next(): Promise<unknown[][] | null> {
    while (!this.ready.length && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    const batch = this.ready.shift();
    if (batch) {
      this.resume();
      return batch;
    }
    if (this.error) throw this.error;
    return null;
  }

  /** Lets the source run on, dropping what it sends: for a consumer that stops before the end. */
  discardRest(): void {
    this.discarding = true;
    this.ready.length = 0;
    this.filling = [];
    this.resume();
  }

  private resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.source.resume();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
