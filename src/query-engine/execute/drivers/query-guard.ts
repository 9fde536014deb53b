import type { QueryOptions } from './driver';
import { QueryCancelledError, QueryTimeoutError } from './errors';

export interface GuardActions {
  /** Stops the running statement on the database (pg_cancel_backend, KILL QUERY, interrupt, kill). */
  cancel(): Promise<void> | void;
  /** Last resort when cancel() fails, or the statement still runs some time after the database took it: drop the connection. */
  escalate?(): void;
}

/** How long a statement may go on after the database acknowledged its cancel before the connection is dropped. */
export const ESCALATE_AFTER_MS = 3000;

/**
 * Runs one statement's work so that an aborted signal or an expired timeout stops it on the database, and
 * turns the resulting database error into QueryCancelledError / QueryTimeoutError. `backstopMs` is when the
 * client-side timer fires: the timeout itself for engines without a server-side one, a little later otherwise.
 * After run() settles, `interrupted` tells the driver whether the connection went through a cancel.
 */
export class QueryGuard {
  private reason: 'cancel' | 'timeout' | null = null;
  private cancelling: Promise<void> | null = null;
  private escalation: NodeJS.Timeout | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly opts: QueryOptions,
    private readonly actions: GuardActions,
    private readonly backstopMs: number | null,
  ) {}

  get interrupted(): boolean {
    return this.reason !== null;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    this.begin();
    try {
      const result = await work();
      // A timeout that fired just as the work finished is moot; a cancel is not (the caller has gone).
      if (this.reason === 'cancel') throw new QueryCancelledError();
      return result;
    } catch (e) {
      throw this.translate(e);
    } finally {
      await this.end();
    }
  }

  /**
   * For work that spans several calls (a result read in batches): begin(), then check() between batches and
   * translate() what they throw, and end() once, whatever happened.
   */
  begin(): void {
    const { signal } = this.opts;
    if (signal?.aborted) throw new QueryCancelledError();
    signal?.addEventListener('abort', this.onAbort, { once: true });
    if (this.backstopMs !== null) this.timer = setTimeout(() => this.trigger('timeout'), this.backstopMs);
  }

  /** Throws when the query was cancelled or timed out while the last step succeeded anyway. */
  check(): void {
    if (this.reason) throw this.translate(null);
  }

  translate(e: unknown): unknown {
    if (this.reason === 'cancel') return new QueryCancelledError();
    if (this.reason === 'timeout') return new QueryTimeoutError(this.opts.timeoutMs ?? this.backstopMs ?? 0);
    return e;
  }

  async end(): Promise<void> {
    this.ended = true;
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    if (this.timer) clearTimeout(this.timer);
    await this.cancelling;
    if (this.escalation) clearTimeout(this.escalation);
  }

  private readonly onAbort = () => this.trigger('cancel');

  private trigger(reason: 'cancel' | 'timeout'): void {
    if (this.reason) return;
    this.reason = reason;
    // The escalation clock starts when the database has acknowledged the cancel, not when it was asked for: on a
    // loaded machine opening the cancelling connection alone can take seconds, and a late cancel that works
    // should not cost the connection. A cancel that fails escalates at once.
    this.cancelling = Promise.resolve()
      .then(() => this.actions.cancel())
      .then(
        () => {
          const { escalate } = this.actions;
          if (escalate && !this.ended) this.escalation = setTimeout(() => escalate(), ESCALATE_AFTER_MS);
        },
        () => this.actions.escalate?.(),
      );
  }
}
