import { Injectable } from '@nestjs/common';
import { DataSource, LessThan } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { join, sql } from '../../common/database/sql';
import { QueryExecution } from '../../schema/query-execution.entity';

/** Every query writes a row and reads an average here, so both are plain SQL (the ORM's builder cost more). */
@Injectable()
export class QueryLogRepository {
  private readonly sql: AppSql;

  constructor(private readonly db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** Several runs in one statement, so one commit. */
  async insertMany(rows: Omit<QueryExecution, 'id'>[]): Promise<void> {
    if (rows.length === 0) return;
    const values = rows.map(
      (r) =>
        sql`(${r.hash}, ${r.started_at}, ${r.running_time}, ${r.result_rows}, ${r.native}, ${r.context}, ${r.executor_id}, ${r.card_id},
          ${r.dashboard_id}, ${r.database_id}, ${r.error}, ${r.cache_hit})`,
    );
    await this.sql.execute(
      sql`INSERT INTO query_execution (hash, started_at, running_time, result_rows, native, context, executor_id, card_id, dashboard_id,
         database_id, error, cache_hit)
       VALUES ${join(values)}`,
    );
  }

  /** Running times (ms) of the last `limit` successful, uncached runs of a query, newest first. */
  async recentRunningTimes(hash: string, limit: number): Promise<number[]> {
    const rows = await this.sql.query<{ running_time: number }>(
      'SELECT running_time FROM query_execution WHERE hash = $1 AND error IS NULL AND cache_hit = $2' +
        ' ORDER BY started_at DESC, id DESC LIMIT $3',
      [hash, false, limit],
    );
    return rows.map((r) => Number(r.running_time));
  }

  async deleteStartedBefore(before: Date): Promise<number> {
    const result = await this.db.manager.delete(QueryExecution, { started_at: LessThan(before) });
    return result.affected ?? 0;
  }
}
