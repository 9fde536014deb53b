import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { BeforeApplicationShutdown, Inject, Injectable, Optional } from '@nestjs/common';
import { JobLeases } from '../../common/cluster/job-leases';
import { AppLogger } from '../../common/logging/app-logger';
import { BackgroundWork } from '../query-log';
import { boundedJson } from './bounded-json';
import { QueryCacheRepository } from './query-cache.repository';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Results whose JSON is larger than this are not cached. */
export const MAX_CACHED_RESULT_BYTES = 10 * 1024 * 1024;
/** Expired entries are deleted at most this often, by one instance of all (a job lease for the period). */
export const CACHE_PRUNE_EVERY_MS = 60 * 60_000;

export interface CacheHit<T> {
  result: T;
  /** When the result was stored. */
  updatedAt: Date;
}

/**
 * Query results cached in the app DB, so every instance on it shares them. Entries are keyed by `cacheKey()`,
 * stored as gzipped JSON (results over 10 MB of JSON are skipped), read back only until they expire, and
 * deleted once expired by a background pass (at most hourly per instance). Cache trouble never fails a query:
 * a failing read is a miss, a failing write is logged.
 */
@Injectable()
export class QueryCacheService implements BeforeApplicationShutdown {
  private readonly work: BackgroundWork;
  private lastPruneAt = 0;
  /** The last write accepted per key: a later write of the same key waits for it, so the later result wins. */
  private readonly writes = new Map<string, Promise<void>>();

  constructor(
    private readonly repo: QueryCacheRepository,
    @Inject(AppLogger) private readonly logger: AppLogger,
    @Optional() private readonly leases?: JobLeases,
  ) {
    this.work = new BackgroundWork((what, e) =>
      this.logger.warning(`Query cache: ${what} failed`, { error: e instanceof Error ? e.message : String(e) }),
    );
  }

  /** The cached result for `key`, when there is one that has not expired. */
  async get<T>(key: string, now = new Date()): Promise<CacheHit<T> | null> {
    try {
      const row = await this.repo.findUnexpired(key, now);
      if (!row) return null;
      const json = (await gunzipAsync(Buffer.from(row.results, 'base64'))).toString('utf8');
      return { result: JSON.parse(json) as T, updatedAt: new Date(row.updated_at) };
    } catch (e) {
      this.logger.warning('Query cache: reading an entry failed', { error: e instanceof Error ? e.message : String(e) });
      return null;
    }
  }

  /** Stores a result for `ttlSeconds`; false when it was not stored (too large, or no positive TTL). */
  async put(key: string, result: unknown, ttlSeconds: number, now = new Date()): Promise<boolean> {
    if (!(ttlSeconds > 0)) return false;
    const json = boundedJson(result, MAX_CACHED_RESULT_BYTES);
    if (json === null) {
      this.logger.info('Query cache: result too large to cache', { max_bytes: MAX_CACHED_RESULT_BYTES });
      return false;
    }
    const size = Buffer.byteLength(json, 'utf8');
    const results = (await gzipAsync(Buffer.from(json, 'utf8'))).toString('base64');
    await this.repo.upsert({
      query_hash: key,
      results,
      size_bytes: size,
      updated_at: now,
      expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    });
    return true;
  }

  /** put() after the answer has gone out; also prunes expired entries now and then. */
  putInBackground(key: string, result: unknown, ttlSeconds: number): void {
    const acceptedAt = new Date();
    const previous = this.writes.get(key);
    let finished!: () => void;
    const mine = new Promise<void>((resolve) => (finished = resolve));
    this.writes.set(key, mine);
    this.work.start('storing a result', async () => {
      try {
        await previous;
        await this.put(key, result, ttlSeconds, acceptedAt);
      } finally {
        finished();
        if (this.writes.get(key) === mine) this.writes.delete(key);
      }
    });
    if (Date.now() - this.lastPruneAt >= CACHE_PRUNE_EVERY_MS) {
      this.lastPruneAt = Date.now();
      this.work.start('pruning', () =>
        this.leases ? this.leases.runOncePer('query-cache-prune', CACHE_PRUNE_EVERY_MS, () => this.pruneExpired()) : this.pruneExpired(),
      );
    }
  }

  pruneExpired(now = new Date()): Promise<number> {
    return this.repo.deleteExpired(now);
  }

  /** Waits for every write accepted so far: after it, get() sees the last result put for each key. */
  flush(): Promise<void> {
    return this.work.flush();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.flush();
  }
}
