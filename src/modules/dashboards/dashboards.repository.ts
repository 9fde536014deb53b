import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { archiveWithCollections } from '../../common/database/archive-with-collections';
import { idsOf, typedRow, typedRows } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';
import { and, inList, raw, sql, type Sql } from '../../common/database/sql';
import { Action } from '../../schema/action.entity';
import { Dashboard } from '../../schema/dashboard.entity';
import { LAST_EDIT_SHAPE, type LastEdit } from '../../schema/card.rows';
import {
  COLLECTION_PLACE_ROW_SHAPE,
  DASHBOARD_ROW_SHAPE,
  DASHCARD_ROW_SHAPE,
  SERIES_ROW_SHAPE,
  TAB_ROW_SHAPE,
  type CollectionPlaceRow,
  type DashboardRow,
  type DashcardRow,
  type SeriesRow,
  type TabRow,
} from '../../schema/dashboard.rows';

type Row = Record<string, unknown>;

const SELECT = `SELECT d.*,
  col.name AS coll_name, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id,
  col.authority_level AS coll_authority_level, col.archived AS coll_archived, col.slug AS coll_slug, col.entity_id AS coll_entity_id
FROM report_dashboard d
LEFT JOIN collection col ON col.id = d.collection_id`;

/** Which dashboards a listing wants; every condition given must hold. */
export interface DashboardListFilter {
  archived: boolean;
  /** The caller's readable-collection condition on `d.collection_id` (CollectionAccessService.readableWhere). */
  readable?: Sql;
  creatorId?: number;
  /** One collection's (null: Root's). */
  collectionId?: number | null;
  pinned?: boolean;
}

/** Every app-DB query of the dashboards module that is more than a find by id; each loads a whole set in one query. */
@Injectable()
export class DashboardsRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async row(id: number): Promise<DashboardRow | null> {
    const [row] = await this.sql.query<Row>(`${SELECT} WHERE d.id = $1`, [id]);
    return row ? typedRow<DashboardRow>(row, DASHBOARD_ROW_SHAPE) : null;
  }

  byIds(ids: number[]): Promise<DashboardRow[]> {
    return ids.length ? this.rows(inList(raw('d.id'), ids)) : Promise.resolve([]);
  }

  /** A listing's dashboards by name, with the author and time of each one's latest revision. */
  async list(f: DashboardListFilter): Promise<{ rows: DashboardRow[]; edits: Map<number, LastEdit> }> {
    const where = and(
      sql`d.archived = ${f.archived}`,
      f.readable,
      f.creatorId !== undefined && sql`d.creator_id = ${f.creatorId}`,
      f.collectionId === null && sql`d.collection_id IS NULL`,
      f.collectionId !== undefined && f.collectionId !== null && sql`d.collection_id = ${f.collectionId}`,
      f.pinned === true && sql`d.collection_position IS NOT NULL`,
      f.pinned === false && sql`d.collection_position IS NULL`,
    );
    const [rows, edits] = await Promise.all([this.rows(where), this.lastEditsWhere(where)]);
    return { rows, edits };
  }

  /** Unarchived dashboards with static embedding on. */
  embeddable(): Promise<DashboardRow[]> {
    return this.rows(sql`d.enable_embedding = ${true} AND d.archived = ${false}`);
  }

  /** Unarchived dashboards with a public link. */
  withPublicLinks(): Promise<DashboardRow[]> {
    return this.rows(sql`d.public_uuid IS NOT NULL AND d.archived = ${false}`);
  }

  /** The other unarchived dashboards of the same collection that `readable` lets through, most viewed first. */
  sameCollection(row: Pick<DashboardRow, 'id' | 'collection_id'>, readable: Sql): Promise<DashboardRow[]> {
    const collection = row.collection_id === null ? sql`d.collection_id IS NULL` : sql`d.collection_id = ${row.collection_id}`;
    return this.rows(and(sql`d.id <> ${row.id}`, sql`d.archived = ${false}`, collection, readable), 'd.view_count DESC, d.id');
  }

  private async rows(where: Sql, order = 'd.name, d.id'): Promise<DashboardRow[]> {
    const rows = await this.sql.query<Row>(sql`${raw(SELECT)} WHERE ${where} ORDER BY ${raw(order)}`);
    return typedRows<DashboardRow>(rows, DASHBOARD_ROW_SHAPE);
  }

  async dashcards(dashboardId: number): Promise<DashcardRow[]> {
    const rows = await this.sql.query<Row>('SELECT * FROM report_dashboardcard WHERE dashboard_id = $1 ORDER BY row, col, id', [
      dashboardId,
    ]);
    return typedRows<DashcardRow>(rows, DASHCARD_ROW_SHAPE);
  }

  /** The series of every dashcard of a dashboard, in one query. */
  async series(dashboardId: number): Promise<SeriesRow[]> {
    const rows = await this.sql.query<Row>(
      `SELECT s.dashboardcard_id, s.card_id, s.position FROM dashboardcard_series s
       JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id
       WHERE dc.dashboard_id = $1 ORDER BY s.dashboardcard_id, s.position, s.id`,
      [dashboardId],
    );
    return typedRows<SeriesRow>(rows, SERIES_ROW_SHAPE);
  }

  async tabs(dashboardId: number): Promise<TabRow[]> {
    const rows = await this.sql.query<Row>('SELECT * FROM dashboard_tab WHERE dashboard_id = $1 ORDER BY position, id', [dashboardId]);
    return typedRows<TabRow>(rows, TAB_ROW_SHAPE);
  }

  /** Cards saved into the dashboard (`dashboard_id`) that no other dashboard uses, as dashcard or series. */
  async ownCardsOnlyHere(dashboardId: number): Promise<{ id: number }[]> {
    const rows = await this.sql.query<Row>(
      `SELECT c.id FROM report_card c WHERE c.dashboard_id = $1
       AND NOT EXISTS (SELECT 1 FROM report_dashboardcard dc WHERE dc.card_id = c.id AND dc.dashboard_id <> $1)
       AND NOT EXISTS (SELECT 1 FROM dashboardcard_series s JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id
                       WHERE s.card_id = c.id AND dc.dashboard_id <> $1)`,
      [dashboardId],
    );
    return typedRows<{ id: number }>(rows, ID_SHAPE);
  }

  /** Cards on the dashboard, as dashcards or series. */
  async cardIdsOn(dashboardId: number): Promise<Set<number>> {
    const rows = await this.sql.query<Row>(
      `SELECT card_id AS id FROM report_dashboardcard WHERE dashboard_id = $1 AND card_id IS NOT NULL
       UNION SELECT s.card_id AS id FROM dashboardcard_series s JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id
             WHERE dc.dashboard_id = $1`,
      [dashboardId],
    );
    return new Set(idsOf(rows));
  }

  /** The author and time of the dashboard's latest revision. */
  async lastEdit(id: number): Promise<LastEdit | null> {
    const [r] = await this.sql.query<Row>(
      `SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM revision r JOIN core_user u ON u.id = r.user_id
       WHERE r.model = 'dashboard' AND r.most_recent = $1 AND r.model_id = $2`,
      [true, id],
    );
    return r ? typedRow<LastEdit>(r, LAST_EDIT_SHAPE) : null;
  }

  /** The latest revision's author and time of each dashboard matching `where` (on `d`). */
  private async lastEditsWhere(where: Sql): Promise<Map<number, LastEdit>> {
    const rows = await this.sql.query<Row>(
      sql`SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM report_dashboard d
       JOIN revision r ON r.model = 'dashboard' AND r.model_id = d.id AND r.most_recent = ${true}
       JOIN core_user u ON u.id = r.user_id
       WHERE ${where}`,
    );
    return new Map(typedRows<LastEdit>(rows, LAST_EDIT_SHAPE).map((r) => [r.card_id, r]));
  }

  /** Which of `collectionIds` hold a dashboard (archived ones, or unarchived ones). */
  async collectionsHolding(collectionIds: number[], archived: boolean): Promise<number[]> {
    const rows = await this.sql.query<Row>(
      sql`SELECT DISTINCT collection_id AS id FROM report_dashboard
        WHERE archived = ${archived} AND ${this.sql.idIn(raw('collection_id'), collectionIds)}`,
    );
    return idsOf(rows);
  }

  /** The ids of the dashboards in these collections, archived or not. */
  async idsInCollections(collectionIds: number[], tx: EntityManager): Promise<number[]> {
    const rows = await tx.find(Dashboard, { where: { collection_id: In(collectionIds) }, select: { id: true } });
    return rows.map((r) => r.id);
  }

  /** Archiving collections archives their dashboards not archived yet; unarchiving restores those, not the ones archived on their own. */
  archiveInCollections(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    return archiveWithCollections(tx, 'report_dashboard', collectionIds, archived);
  }

  /** A card deleted for good leaves every dashboard: its dashcards and its places in series. */
  async removeCardEverywhere(tx: EntityManager, cardId: number): Promise<void> {
    await tx.createQueryBuilder().delete().from('dashboardcard_series').where('card_id = :cardId', { cardId }).execute();
    await tx.createQueryBuilder().delete().from('report_dashboardcard').where('card_id = :cardId', { cardId }).execute();
  }

  /** Which of these action ids exist (dashcards may name only existing actions); in `tx` when given. */
  async existingActionIds(ids: number[], tx?: EntityManager): Promise<number[]> {
    if (tx) return (await tx.find(Action, { where: { id: In(ids) }, select: { id: true } })).map((a) => a.id);
    const rows = await this.sql.query<Row>(sql`SELECT id FROM action WHERE ${inList(raw('id'), ids)}`);
    return idsOf(rows);
  }

  async bumpViews(id: number): Promise<void> {
    await this.sql.execute('UPDATE report_dashboard SET view_count = view_count + 1, last_viewed_at = $2 WHERE id = $1', [id, new Date()]);
  }

  async collectionPlace(id: number): Promise<CollectionPlaceRow | null> {
    const [c] = await this.sql.query<Row>('SELECT id, location, personal_owner_id FROM collection WHERE id = $1', [id]);
    return c ? typedRow<CollectionPlaceRow>(c, COLLECTION_PLACE_ROW_SHAPE) : null;
  }
}
