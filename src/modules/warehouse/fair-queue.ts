import { QueryCancelledError, QueueTimeoutError } from '../../query-engine/execute/drivers/errors';

/** Whose query it is: a user id, or a string naming a shared object whose anonymous viewers share its slots. */
export type SlotOwner = number | string;

export interface FairQueueLimits {
  /** Queries that may run at once (the database's pool size). Read at every decision, so it may change. */
  capacity: number;
  /** Queries one owner may run at once. */
  perOwner(owner: SlotOwner): number;
  /** Longest a query waits for its slot before QueueTimeoutError. */
  maxWaitMs: number;
}

/** How a query's wait ended: it got its slot, waited its longest, or its caller left first. */
export type WaitOutcome = 'ran' | 'timed-out' | 'left';

export interface FairQueueStats {
  running: number;
  waiting: number;
  /** Owners with at least one query waiting. */
  waitingOwners: number;
  /** How long the query waiting longest has waited (0 when none waits). */
  longestWaitMs: number;
}

interface Waiter {
  since: number;
  grant(release: () => void): void;
}

/**
 * The query slots of one database. A query runs at once while the database has a free slot and its owner is under
 * their own limit; otherwise it waits. A freed slot goes to the waiting owner with the fewest queries running, among
 * equals in turn (round robin: the owner served goes to the back of the line), each owner's queries in the order
 * they came, so one owner's burst delays another owner's single query by at most the time it takes one slot to
 * free up. A waiter leaves the line when its signal
 * aborts (no slot taken) and fails with QueueTimeoutError after `maxWaitMs`.
 */
export class FairQueue {
  private running = 0;
  private readonly runningBy = new Map<SlotOwner, number>();
  /** Waiting queries by owner. The map's order is the turn order: an owner served is re-inserted at the end. */
  private readonly waiting = new Map<SlotOwner, Waiter[]>();
  private waitingCount = 0;

  constructor(
    private readonly limits: FairQueueLimits,
    /** Told how each wait ended and how long it took (metrics). */
    private readonly waited?: (outcome: WaitOutcome, ms: number) => void,
  ) {}

  /** Resolves, once the query may run, to the function that gives its slot back (calling it again does nothing). */
  acquire(owner: SlotOwner, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) {
      this.waited?.('left', 0);
      return Promise.reject(new QueryCancelledError());
    }
    if (!this.waiting.has(owner) && this.mayStart(owner)) {
      this.waited?.('ran', 0);
      return Promise.resolve(this.start(owner));
    }
    return new Promise((resolve, reject) => {
      const since = Date.now();
      const leave = (outcome: Exclude<WaitOutcome, 'ran'>, error: Error) => {
        this.remove(owner, waiter);
        signal?.removeEventListener('abort', onAbort);
        clearTimeout(timer);
        this.waited?.(outcome, Date.now() - since);
        reject(error);
      };
      const onAbort = () => leave('left', new QueryCancelledError());
      const timer = setTimeout(() => leave('timed-out', new QueueTimeoutError(this.limits.maxWaitMs)), this.limits.maxWaitMs);
      // A waiting query keeps nothing alive by itself: its request does.
      timer.unref();
      const waiter: Waiter = {
        since,
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          clearTimeout(timer);
          this.waited?.('ran', Date.now() - since);
          resolve(release);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const line = this.waiting.get(owner);
      if (line) line.push(waiter);
      else this.waiting.set(owner, [waiter]);
      this.waitingCount++;
    });
  }

  runningFor(owner: SlotOwner): number {
    return this.runningBy.get(owner) ?? 0;
  }

  stats(now = Date.now()): FairQueueStats {
    let oldest = now;
    for (const line of this.waiting.values()) oldest = Math.min(oldest, line[0].since);
    return { running: this.running, waiting: this.waitingCount, waitingOwners: this.waiting.size, longestWaitMs: now - oldest };
  }

  private mayStart(owner: SlotOwner): boolean {
    return this.running < this.limits.capacity && this.runningFor(owner) < this.limits.perOwner(owner);
  }

  private start(owner: SlotOwner): () => void {
    this.running++;
    this.runningBy.set(owner, this.runningFor(owner) + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.running--;
      const left = this.runningFor(owner) - 1;
      if (left > 0) this.runningBy.set(owner, left);
      else this.runningBy.delete(owner);
      this.dispatch();
    };
  }

  /**
   * Hands free slots to waiting owners: first to the one with the fewest queries running (someone with none goes
   * before a burst's owner), among equals in turn; an owner at their own limit is passed over, keeping their place.
   */
  private dispatch(): void {
    while (this.waitingCount > 0 && this.running < this.limits.capacity) {
      let owner: SlotOwner | undefined;
      for (const o of this.waiting.keys()) {
        const running = this.runningFor(o);
        if (running < this.limits.perOwner(o) && (owner === undefined || running < this.runningFor(owner))) owner = o;
      }
      if (owner === undefined) return;
      const line = this.waiting.get(owner)!;
      const waiter = line.shift()!;
      this.waiting.delete(owner);
      if (line.length) this.waiting.set(owner, line);
      this.waitingCount--;
      waiter.grant(this.start(owner));
    }
  }

  private remove(owner: SlotOwner, waiter: Waiter): void {
    const line = this.waiting.get(owner);
    const at = line?.indexOf(waiter) ?? -1;
    if (!line || at < 0) return;
    line.splice(at, 1);
    this.waitingCount--;
    if (!line.length) this.waiting.delete(owner);
  }
}
