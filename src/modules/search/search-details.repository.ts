import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';

export interface LastEditRow {
  model: string;
  model_id: number;
  user_id: number | null;
  timestamp: Date | string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

export interface TableDetails {
  name: string;
  schema: string | null;
  display_name: string;
  description: string | null;
  initial_sync_status: string | null;
  database_name: string | null;
}

const list = (ids: number[], from: number) => ids.map((_, i) => `$${i + from}`).join(', ');

/**
 * What a page of search results shows beyond the ranked rows: one query per kind of detail, for the whole page
 * (a page holds at most 1,000 rows), so the number of queries does not grow with the matches.
 */
@Injectable()
export class SearchDetailsRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** The latest revision (author and time) of each card and dashboard. */
  async lastEdits(cardIds: number[], dashboardIds: number[]): Promise<LastEditRow[]> {
    const parts: string[] = [];
    const params: unknown[] = [true];
    for (const [model, ids] of [
      ['card', cardIds],
      ['dashboard', dashboardIds],
    ] as const) {
      if (ids.length === 0) continue;
      parts.push(`(r.model = '${model}' AND r.model_id IN (${list(ids, params.length + 1)}))`);
      params.push(...ids);
    }
    if (parts.length === 0) return [];
    return this.sql.query<LastEditRow>(
      `SELECT r.model, r.model_id, r.user_id, r.timestamp, u.first_name, u.last_name, u.email
       FROM revision r LEFT JOIN core_user u ON u.id = r.user_id
       WHERE r.most_recent = $1 AND (${parts.join(' OR ')})`,
      params,
    );
  }

  /** Each card's dashboard (a question saved into one) and how many dashcards show it. */
  async cards(ids: number[]): Promise<Map<number, { dashboard_id: number | null; dashboardcard_count: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; dashboard_id: number | null; n: number | string }>(
      `SELECT c.id, c.dashboard_id, (SELECT COUNT(*) FROM report_dashboardcard dc WHERE dc.card_id = c.id) AS n
       FROM report_card c WHERE c.id IN (${list(ids, 1)})`,
      ids,
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        { dashboard_id: r.dashboard_id === null ? null : Number(r.dashboard_id), dashboardcard_count: Number(r.n) },
      ]),
    );
  }

  async tables(ids: number[]): Promise<Map<number, TableDetails>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<TableDetails & { id: number }>(
      `SELECT t.id, t.name, t.schema, t.display_name, t.description, t.initial_sync_status, d.name AS database_name
       FROM metabase_table t LEFT JOIN metabase_database d ON d.id = t.db_id WHERE t.id IN (${list(ids, 1)})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  async databaseSyncStatus(ids: number[]): Promise<Map<number, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; initial_sync_status: string | null }>(
      `SELECT id, initial_sync_status FROM metabase_database WHERE id IN (${list(ids, 1)})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), r.initial_sync_status]));
  }
}
