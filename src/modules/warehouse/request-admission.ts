import { Inject, Injectable, Optional } from '@nestjs/common';
import type { Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MetricsService } from '../observability';
import { FairQueue } from './fair-queue';

/** The admission line as GET /api/util/diagnostic_info/connection_pool_info shows it (`query-requests`). */
export interface RequestAdmissionInfo {
  /** Query requests being worked on now. */
  numAdmittedRequests: number;
  /** Query requests waiting for their user's turn. */
  numQueuedRequests: number;
  /** Users with a request waiting. */
  numQueuedUsers: number;
  /** How long the request waiting longest has waited, in ms. */
  longestQueuedMs: number;
  /** Query requests of one user worked on at once (MAX_QUERY_REQUESTS_PER_USER). */
  maxRequestsPerUser: number;
}

/**
 * How many of a user's query requests this instance works on at once (`MAX_QUERY_REQUESTS_PER_USER`). Query slots
 * bound a user's warehouse runs, but not the requests that join an identical run in flight, nor the server's work
 * around a run (checking permissions, compiling, writing the answer): 50 clients of one user kept 50 requests in the
 * event loop, and another user's query waited behind all of them at each step (bench/results.md, the burst). A
 * request past the limit waits here, before any of that work, fairly across users (fair-queue.ts), for at most
 * `QUERY_QUEUE_TIMEOUT_SECONDS` (then 503 with Retry-After); a client that disconnects leaves the line at once.
 * Not held here: downloads (long streams, bounded by their slots) and the viewers of public links and embeds,
 * whose identical queries share runs only while in flight together.
 */
@Injectable()
export class RequestAdmission {
  private readonly queue: FairQueue;
  private readonly perUser: number;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.perUser = config.maxQueryRequestsPerUser;
    this.queue = new FairQueue(
      { capacity: Infinity, perOwner: () => this.perUser, maxWaitMs: config.queryQueueTimeoutSeconds * 1000 },
      (outcome, ms) => {
        this.metrics?.requestQueued(outcome, ms);
        this.metrics?.requestsWaiting(this.queue.stats().waiting);
      },
    );
  }

  /**
   * Waits for the user's turn to have this request worked on; the turn ends when the response is done or the client
   * goes. Rejects with QueueTimeoutError (503) when the turn does not come in time, QueryCancelledError when the
   * client left first.
   */
  async admit(userId: number, res: Response): Promise<void> {
    const left = new AbortController();
    const onClose = () => left.abort();
    res.once('close', onClose);
    // A client gone before this point has closed its response already: the event will not come again.
    if (res.destroyed) left.abort();
    let release: () => void;
    try {
      const turn = this.queue.acquire(userId, left.signal);
      this.metrics?.requestsWaiting(this.queue.stats().waiting);
      release = await turn;
    } finally {
      res.off('close', onClose);
    }
    if (res.destroyed) release();
    else res.once('close', release);
  }

  info(): RequestAdmissionInfo {
    const s = this.queue.stats();
    return {
      numAdmittedRequests: s.running,
      numQueuedRequests: s.waiting,
      numQueuedUsers: s.waitingOwners,
      longestQueuedMs: s.longestWaitMs,
      maxRequestsPerUser: this.perUser,
    };
  }
}
