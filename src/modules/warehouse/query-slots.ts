import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MetricsService } from '../observability';
import { FairQueue, FairQueueLimits, SlotOwner } from './fair-queue';

/**
 * A shared object (public link, embed) is opened by many anonymous viewers at once: a cold dashboard of 8 cards
 * seen by two viewers runs 16 queries. Its viewers share this many times a user's slots.
 */
export const SHARED_SLOTS_FACTOR = 5;

/** The query queue of one warehouse database as the connection-pool diagnostics show it (beside its pool's figures). */
export interface QueryQueueInfo {
  /** Queries holding a slot: warehouse runs in flight (identical queries sharing one run count once). */
  numRunningQueries: number;
  /** Queries waiting for a slot. */
  numQueuedQueries: number;
  /** Users and shared objects with a query waiting. */
  numQueuedUsers: number;
  /** How long the query waiting longest has waited, in ms. */
  longestQueuedMs: number;
  /** Queries that may run at once on the database: its pool's size. */
  maxRunningQueries: number;
  /** Queries one user may run at once on it. */
  maxQueriesPerUser: number;
}

/**
 * The warehouse queries running on this instance, per database: at most as many as its pool holds connections, and
 * per user at most `MAX_QUERIES_PER_USER`, never the whole pool (one user, or one stolen session, cannot occupy every
 * connection). The anonymous viewers of one shared object share SHARED_SLOTS_FACTOR times a user's slots. A query
 * beyond that waits its turn, fairly across users (fair-queue.ts), for at most `QUERY_QUEUE_TIMEOUT_SECONDS`.
 */
@Injectable()
export class QuerySlots {
  private readonly queues = new Map<number, { queue: FairQueue; limits: FairQueueLimits }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  /**
   * Waits for `who`'s turn to run a query on database `dbId`, whose pool holds `poolSize` connections; resolves to
   * the function that gives the slot back. Rejects with QueryCancelledError when `signal` aborts first, and with
   * QueueTimeoutError when the turn does not come in time.
   */
  take(dbId: number, poolSize: number, who: SlotOwner, signal?: AbortSignal): Promise<() => void> {
    return this.queueOf(dbId, poolSize).acquire(who, signal);
  }

  /** Queries this user (or shared object) has running now, on every database (diagnostics and tests). */
  runningFor(who: SlotOwner): number {
    let n = 0;
    for (const { queue } of this.queues.values()) n += queue.runningFor(who);
    return n;
  }

  /** The queue of a database, for the connection-pool diagnostics; undefined before its first query. */
  info(dbId: number): QueryQueueInfo | undefined {
    const entry = this.queues.get(dbId);
    if (!entry) return undefined;
    const stats = entry.queue.stats();
    return {
      numRunningQueries: stats.running,
      numQueuedQueries: stats.waiting,
      numQueuedUsers: stats.waitingOwners,
      longestQueuedMs: stats.longestWaitMs,
      maxRunningQueries: entry.limits.capacity,
      maxQueriesPerUser: entry.limits.perOwner(0),
    };
  }

  private queueOf(dbId: number, poolSize: number): FairQueue {
    let entry = this.queues.get(dbId);
    if (!entry) {
      const limits: FairQueueLimits = {
        capacity: poolSize,
        // One connection is always left to the others, unless the pool has only one.
        perOwner: (who) =>
          Math.min(this.config.maxQueriesPerUser * (typeof who === 'number' ? 1 : SHARED_SLOTS_FACTOR), Math.max(1, limits.capacity - 1)),
        maxWaitMs: this.config.queryQueueTimeoutSeconds * 1000,
      };
      const pool = `db-${dbId}`;
      entry = { queue: new FairQueue(limits, (outcome, ms) => this.metrics?.queryQueued(pool, outcome, ms)), limits };
      this.queues.set(dbId, entry);
    }
    // A database whose engine changed gets its new pool's size.
    entry.limits.capacity = poolSize;
    return entry.queue;
  }
}
