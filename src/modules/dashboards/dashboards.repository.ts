import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import type { LastEdit } from '../cards/cards.repository';

/** A dashboard row with its collection's columns (for the access check and the `collection` key). */
export interface DashboardRow {
  id: number;
  name: string;
  description: string | null;
  parameters: string | null;
  collection_id: number | null;
  collection_position: number | null;
  cache_ttl: number | null;
  archived: boolean | number;
  archived_directly: boolean | number;
  width: string;
  points_of_interest: string | null;
  caveats: string | null;
  position: number | null;
  show_in_getting_started: boolean | number;
  auto_apply_filters: boolean | number;
  enable_embedding: boolean | number;
  embedding_params: string | null;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number;
  entity_id: string | null;
  view_count: number;
  last_viewed_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  coll_name: string | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
  coll_authority_level: string | null;
  coll_archived: boolean | number | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
}

/** A dashcard row; `series_card_ids` is the comma-joined list of its series cards, in position order. */
export interface DashcardRow {
  id: number;
  dashboard_id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  action_id: number | null;
  row: number;
  col: number;
  size_x: number;
  size_y: number;
  parameter_mappings: string | null;
  visualization_settings: string | null;
  inline_parameters: string | null;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface SeriesRow {
  dashboardcard_id: number;
  card_id: number;
  position: number;
}

export interface TabRow {
  id: number;
  dashboard_id: number;
  name: string;
  position: number;
  entity_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const SELECT = `SELECT d.*,
  col.name AS coll_name, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id,
  col.authority_level AS coll_authority_level, col.archived AS coll_archived, col.slug AS coll_slug, col.entity_id AS coll_entity_id
FROM report_dashboard d
LEFT JOIN collection col ON col.id = d.collection_id`;

/** Every app-DB query of the dashboards module that is more than a find by id; each loads a whole set in one query. */
@Injectable()
export class DashboardsRepository {
  readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async row(id: number): Promise<DashboardRow | null> {
    return (await this.sql.query<DashboardRow>(`${SELECT} WHERE d.id = $1`, [id]))[0] ?? null;
  }

  rows(where: string, params: unknown[], order = 'd.name, d.id'): Promise<DashboardRow[]> {
    return this.sql.query<DashboardRow>(`${SELECT} WHERE ${where} ORDER BY ${order}`, params);
  }

  dashcards(dashboardId: number): Promise<DashcardRow[]> {
    return this.sql.query<DashcardRow>('SELECT * FROM report_dashboardcard WHERE dashboard_id = $1 ORDER BY row, col, id', [dashboardId]);
  }

  /** The series of every dashcard of a dashboard, in one query. */
  series(dashboardId: number): Promise<SeriesRow[]> {
    return this.sql.query<SeriesRow>(
      `SELECT s.dashboardcard_id, s.card_id, s.position FROM dashboardcard_series s
       JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id
       WHERE dc.dashboard_id = $1 ORDER BY s.dashboardcard_id, s.position, s.id`,
      [dashboardId],
    );
  }

  tabs(dashboardId: number): Promise<TabRow[]> {
    return this.sql.query<TabRow>('SELECT * FROM dashboard_tab WHERE dashboard_id = $1 ORDER BY position, id', [dashboardId]);
  }

  /** Cards saved into the dashboard (`dashboard_id`) that no other dashboard uses, as dashcard or series. */
  ownCardsOnlyHere(dashboardId: number): Promise<{ id: number }[]> {
    return this.sql.query<{ id: number }>(
      `SELECT c.id FROM report_card c WHERE c.dashboard_id = $1
       AND NOT EXISTS (SELECT 1 FROM report_dashboardcard dc WHERE dc.card_id = c.id AND dc.dashboard_id <> $1)
       AND NOT EXISTS (SELECT 1 FROM dashboardcard_series s JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id WHERE s.card_id = c.id AND dc.dashboard_id <> $1)`,
      [dashboardId],
    );
  }

  /** Cards on the dashboard, as dashcards or series. */
  async cardIdsOn(dashboardId: number): Promise<Set<number>> {
    const rows = await this.sql.query<{ id: number }>(
      `SELECT card_id AS id FROM report_dashboardcard WHERE dashboard_id = $1 AND card_id IS NOT NULL
       UNION SELECT s.card_id AS id FROM dashboardcard_series s JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id WHERE dc.dashboard_id = $1`,
      [dashboardId],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The author and time of the dashboard's latest revision. */
  async lastEdit(id: number): Promise<LastEdit | null> {
    const [r] = await this.sql.query<LastEdit>(
      `SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM revision r JOIN core_user u ON u.id = r.user_id
       WHERE r.model = 'dashboard' AND r.most_recent = $1 AND r.model_id = $2`,
      [true, id],
    );
    return r ?? null;
  }

  /** The latest revision's author and time of each dashboard matching `where` (on `d`, values from $1). */
  async lastEditsWhere(where: string, params: unknown[]): Promise<Map<number, LastEdit>> {
    const rows = await this.sql.query<LastEdit>(
      `SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM report_dashboard d
       JOIN revision r ON r.model = 'dashboard' AND r.model_id = d.id AND r.most_recent = $${params.length + 1}
       JOIN core_user u ON u.id = r.user_id
       WHERE ${where}`,
      [...params, true],
    );
    return new Map(rows.map((r) => [Number(r.card_id), r]));
  }

  async bumpViews(id: number): Promise<void> {
    await this.sql.execute('UPDATE report_dashboard SET view_count = view_count + 1, last_viewed_at = $2 WHERE id = $1', [id, new Date()]);
  }

  async collectionPlace(id: number): Promise<{ id: number; location: string; personal_owner_id: number | null } | null> {
    const [c] = await this.sql.query<{ id: number; location: string; personal_owner_id: number | null }>('SELECT id, location, personal_owner_id FROM collection WHERE id = $1', [id]);
    return c ? { id: Number(c.id), location: c.location, personal_owner_id: c.personal_owner_id === null ? null : Number(c.personal_owner_id) } : null;
  }
}
