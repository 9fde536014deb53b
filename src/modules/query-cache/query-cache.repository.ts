import { Injectable } from '@nestjs/common';
import { DataSource, LessThanOrEqual, MoreThan } from 'typeorm';
import { QueryCacheEntry } from '../../schema/query-cache.entity';

@Injectable()
export class QueryCacheRepository {
  constructor(private readonly db: DataSource) {}

  /** Inserts or replaces: several instances may store the same key at once; the last write wins. */
  async upsert(entry: QueryCacheEntry): Promise<void> {
    await this.db.manager.upsert(QueryCacheEntry, entry, ['query_hash']);
  }

  findUnexpired(key: string, now: Date): Promise<QueryCacheEntry | null> {
    return this.db.manager.findOneBy(QueryCacheEntry, { query_hash: key, expires_at: MoreThan(now) });
  }

  async deleteExpired(now: Date): Promise<number> {
    const result = await this.db.manager.delete(QueryCacheEntry, { expires_at: LessThanOrEqual(now) });
    return result.affected ?? 0;
  }
}
