import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, LessThan } from 'typeorm';
import { QueryExecution } from './query-execution.entity';

@Injectable()
export class QueryLogRepository {
  constructor(private readonly db: DataSource) {}

  async insert(row: Omit<QueryExecution, 'id'>): Promise<void> {
    await this.db.manager.insert(QueryExecution, row);
  }

  /** Running times (ms) of the last `limit` successful, uncached runs of a query, newest first. */
  async recentRunningTimes(hash: string, limit: number): Promise<number[]> {
    const rows = await this.db.manager.find(QueryExecution, {
      select: { running_time: true },
      where: { hash, error: IsNull(), cache_hit: false },
      order: { started_at: 'DESC', id: 'DESC' },
      take: limit,
    });
    return rows.map((r) => Number(r.running_time));
  }

  async deleteStartedBefore(before: Date): Promise<number> {
    const result = await this.db.manager.delete(QueryExecution, { started_at: LessThan(before) });
    return result.affected ?? 0;
  }
}
