import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { MessageError } from '../../common/errors/api-errors';

/**
 * A shared object (public link, embed) is opened by many anonymous viewers at once: a cold dashboard of 8 cards
 * seen by two viewers runs 16 queries. Its viewers share this many times a user's slots.
 */
export const SHARED_SLOTS_FACTOR = 5;

/**
 * How many warehouse queries each user has running on this instance. One user (or one stolen session) cannot
 * occupy every pooled connection: past `MAX_QUERIES_PER_USER` a query answers 429 at once instead of queueing.
 * The anonymous viewers of one shared object share SHARED_SLOTS_FACTOR times as many.
 */
@Injectable()
export class QuerySlots {
  private readonly running = new Map<number | string, number>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /**
   * Takes one of the user's slots (`who`: a user id, or a string naming a shared object, whose anonymous viewers
   * share its slots); the returned function gives it back (calling it again does nothing).
   */
  take(who: number | string): () => void {
    const max = this.config.maxQueriesPerUser * (typeof who === 'number' ? 1 : SHARED_SLOTS_FACTOR);
    const now = this.running.get(who) ?? 0;
    if (now >= max) {
      const whose = typeof who === 'number' ? 'You have' : 'This shared content has';
      throw new MessageError(`${whose} ${max} queries running already. Wait for one of them to finish, then try again.`, 429);
    }
    this.running.set(who, now + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.running.get(who) ?? 1) - 1;
      if (left > 0) this.running.set(who, left);
      else this.running.delete(who);
    };
  }

  /** Queries this user has running now (diagnostics and tests). */
  runningFor(who: number | string): number {
    return this.running.get(who) ?? 0;
  }
}
