import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, or, raw, sql } from '../../common/database/sql';
import { typedRows, type RowShape } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';

export interface LastEditRow {
  model: string;
  model_id: number;
  user_id: number | null;
  timestamp: Date | string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
}

export const LAST_EDIT_ROW_SHAPE: RowShape = { numbers: ['model_id', 'user_id'] };

export interface TableDetails {
  name: string;
  schema: string | null;
  display_name: string;
  description: string | null;
  initial_sync_status: string | null;
  database_name: string | null;
}

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
    if (cardIds.length === 0 && dashboardIds.length === 0) return [];
    const of = (model: string, ids: number[]) => ids.length > 0 && sql`r.model = ${model} AND ${inList(raw('r.model_id'), ids)}`;
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT r.model, r.model_id, r.user_id, r.timestamp, u.first_name, u.last_name, u.email
       FROM revision r LEFT JOIN core_user u ON u.id = r.user_id
       WHERE r.most_recent = ${true} AND ${or(of('card', cardIds), of('dashboard', dashboardIds))}`,
    );
    return typedRows<LastEditRow>(rows, LAST_EDIT_ROW_SHAPE);
  }

  /** Each card's dashboard (a question saved into one) and how many dashcards show it. */
  async cards(ids: number[]): Promise<Map<number, { dashboard_id: number | null; dashboardcard_count: number }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT c.id, c.dashboard_id, (SELECT COUNT(*) FROM report_dashboardcard dc WHERE dc.card_id = c.id) AS n
       FROM report_card c WHERE ${inList(raw('c.id'), ids)}`,
    );
    // COUNT(*) is BIGINT on Postgres: numeric text until read.
    const typed = typedRows<{ id: number; dashboard_id: number | null; n: number }>(rows, { numbers: ['id', 'dashboard_id', 'n'] });
    return new Map(typed.map((r) => [r.id, { dashboard_id: r.dashboard_id, dashboardcard_count: r.n }]));
  }

  async tables(ids: number[]): Promise<Map<number, TableDetails>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT t.id, t.name, t.schema, t.display_name, t.description, t.initial_sync_status, d.name AS database_name
       FROM metabase_table t LEFT JOIN metabase_database d ON d.id = t.db_id WHERE ${inList(raw('t.id'), ids)}`,
    );
    return new Map(typedRows<TableDetails & { id: number }>(rows, ID_SHAPE).map((r) => [r.id, r]));
  }

  async databaseSyncStatus(ids: number[]): Promise<Map<number, string | null>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, initial_sync_status FROM metabase_database WHERE ${inList(raw('id'), ids)}`,
    );
    const typed = typedRows<{ id: number; initial_sync_status: string | null }>(rows, ID_SHAPE);
    return new Map(typed.map((r) => [r.id, r.initial_sync_status]));
  }
}
