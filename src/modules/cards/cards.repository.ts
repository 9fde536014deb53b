import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { archiveWithCollections } from '../../common/database/archive-with-collections';
import { and, containsPattern, inList, raw, sql, type Sql } from '../../common/database/sql';
import type { DerivedQuery } from './card-query';
import { cardListSql } from './card-list-sql';
import { idsOf, typedRow, typedRows } from '../../common/database/row-values';
import { ID_SHAPE } from '../../schema/row-shape';
import {
  CARD_ROW_SHAPE,
  COLLECTION_CARD_TYPE_SHAPE,
  COLLECTION_NAME_SHAPE,
  DASHBOARD_SHOWING_SHAPE,
  LAST_EDIT_SHAPE,
  type CardListRow,
  type CardName,
  type CardRow,
  type CollectionCardType,
  type CollectionName,
  type DashboardShowing,
  type LastEdit,
  type PublicCard,
} from '../../schema/card.rows';

const SELECT = `SELECT c.*,
  col.name AS coll_name, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id,
  col.authority_level AS coll_authority_level, col.archived AS coll_archived, col.slug AS coll_slug,
  col.entity_id AS coll_entity_id, col.namespace AS coll_namespace, col.description AS coll_description,
  u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name, u.is_superuser AS u_is_superuser,
  u.is_qbnewb AS u_is_qbnewb, u.date_joined AS u_date_joined, u.last_login AS u_last_login
FROM report_card c
LEFT JOIN collection col ON col.id = c.collection_id
LEFT JOIN core_user u ON u.id = c.creator_id`;

/** What a listing reads of each card: no visualization settings, parameters or result metadata (the biggest columns). */
const LIST_SELECT = `SELECT c.id, c.name, c.description, c.display, c.type, c.query_type, c.database_id, c.table_id, c.source_card_id,
  c.collection_id, c.collection_position, c.collection_preview, c.cache_ttl, c.archived, c.archived_directly, c.enable_embedding,
  c.public_uuid, c.made_public_by_id, c.creator_id, c.entity_id, c.view_count, c.last_used_at, c.created_at, c.updated_at, c.dataset_query,
  col.name AS coll_name, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id,
  col.authority_level AS coll_authority_level, col.archived AS coll_archived,
  u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name
FROM report_card c
LEFT JOIN collection col ON col.id = c.collection_id
LEFT JOIN core_user u ON u.id = c.creator_id`;

/** What GET /api/card/ lists: every condition given must hold. */
export interface CardListFilter {
  archived: boolean;
  /** The caller's readable-collection condition on `c.collection_id` (CollectionAccessService.readableWhere). */
  readable: Sql;
  /** Where the caller may write (CollectionAccessService.writableWhere): `can_write`. */
  writable: Sql;
  creatorId?: number;
  ids?: number[];
  databaseId?: number;
  tableId?: number;
  /** Cards whose query reads this model or question. */
  usingCard?: number;
  usingMetric?: number;
  usingSegment?: number;
  /** Most viewed first. */
  popular?: boolean;
  /** Only the cards this user ran, latest run first. */
  ranBy?: number;
}

/** A collection's items of the card kinds (`type`s). */
export interface CardItemsFilter {
  archived: boolean;
  types: string[];
  /** One collection's (null: Root's). */
  collectionId: number | null;
  pinned?: boolean;
}

/** Every app-DB query of the cards module that is more than a find by id. */
@Injectable()
export class CardsRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async row(id: number): Promise<CardRow | null> {
    return (await this.rows(sql`c.id = ${id}`))[0] ?? null;
  }

  /** Cards by id, by name; `archived` when given must match. */
  byIds(ids: number[], o: { archived?: boolean } = {}): Promise<CardRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.rows(and(inList(raw('c.id'), ids), o.archived !== undefined && sql`c.archived = ${o.archived}`));
  }

  /**
   * GET /api/card/'s cards, `size` at a time as the app database produces them: each one's JSON (card-list-sql.ts)
   * with `can_write` appended, in one statement however many cards there are.
   */
  async *listJson(f: CardListFilter, size: number): AsyncGenerator<string[]> {
    const ref = (kinds: string[], id: number) =>
      sql`c.id IN (SELECT card_id FROM card_reference WHERE ${inList(raw('kind'), kinds)} AND ref_id = ${id})`;
    const where = and(
      sql`c.archived = ${f.archived}`,
      f.creatorId !== undefined && sql`c.creator_id = ${f.creatorId}`,
      f.ids && inList(raw('c.id'), f.ids),
      f.databaseId !== undefined && sql`c.database_id = ${f.databaseId}`,
      f.tableId !== undefined && sql`c.table_id = ${f.tableId}`,
      f.usingCard !== undefined && ref(['card'], f.usingCard),
      f.usingMetric !== undefined && ref(['metric', 'card'], f.usingMetric),
      f.usingSegment !== undefined && ref(['segment'], f.usingSegment),
      f.ranBy !== undefined && sql`c.id IN (SELECT card_id FROM query_execution WHERE executor_id = ${f.ranBy} AND card_id IS NOT NULL)`,
      f.readable,
    );
    const order =
      f.ranBy !== undefined
        ? sql`(SELECT MAX(q.started_at) FROM query_execution q WHERE q.card_id = c.id AND q.executor_id = ${f.ranBy}) DESC, c.id`
        : raw(f.popular ? 'c.view_count DESC, c.name, c.id' : 'c.name, c.id');
    const list = cardListSql(this.sql.pg);
    const statement = sql`SELECT ${raw(list.json)} AS card_json, CASE WHEN ${f.writable} THEN 1 ELSE 0 END AS can_write
      ${raw(list.from)} WHERE ${where} ORDER BY ${order}`;
    for await (const rows of this.sql.batches<{ card_json: string; can_write: number | boolean }>(statement, size)) {
      yield rows.map((r) => `${r.card_json.slice(0, -1)},"can_write":${r.can_write === 1 || r.can_write === true}}`);
    }
  }

  /** A collection's cards with the listing's columns only, by name, and the author and time of each one's latest revision. */
  async inCollection(f: CardItemsFilter): Promise<{ rows: CardListRow[]; edits: Map<number, LastEdit> }> {
    const where = and(
      sql`c.archived = ${f.archived}`,
      inList(raw('c.type'), f.types),
      f.collectionId === null ? sql`c.collection_id IS NULL` : sql`c.collection_id = ${f.collectionId}`,
      f.pinned === true && sql`c.collection_position IS NOT NULL`,
      f.pinned === false && sql`c.collection_position IS NULL`,
    );
    const [rows, edits] = await Promise.all([
      this.sql.query<Record<string, unknown>>(sql`${raw(LIST_SELECT)} WHERE ${where} ORDER BY c.name, c.id`),
      this.lastEditsWhere(where),
    ]);
    return { rows: typedRows<CardListRow>(rows, CARD_ROW_SHAPE), edits };
  }

  /**
   * Unarchived MBQL cards of these displays that `readable` lets through, newest first, `limit` at a time below
   * the id `before`; `nameContains` when given.
   */
  seriesCandidates(f: { displays: readonly string[]; before: number | null; nameContains?: string; readable: Sql; limit: number }) {
    const where = and(
      sql`c.archived = ${false}`,
      sql`c.query_type = ${'query'}`,
      inList(raw('c.display'), f.displays),
      f.before !== null && sql`c.id < ${f.before}`,
      !!f.nameContains && sql`LOWER(c.name) LIKE ${containsPattern(f.nameContains.toLowerCase())} ESCAPE '\\'`,
      f.readable,
    );
    return this.rows(where, 'c.id DESC', f.limit);
  }

  /** Unarchived cards on a table that `readable` lets through, most viewed first. */
  onTable(tableId: number, readable: Sql, limit: number): Promise<CardRow[]> {
    return this.rows(and(sql`c.table_id = ${tableId}`, sql`c.archived = ${false}`, readable), 'c.view_count DESC, c.id', limit);
  }

  /** The card, when `readable` lets it through. */
  async readableById(id: number, readable: Sql): Promise<CardRow | null> {
    return (await this.rows(and(sql`c.id = ${id}`, readable)))[0] ?? null;
  }

  /** Unarchived cards with static embedding on, by name. */
  async embeddable(): Promise<CardName[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, name FROM report_card WHERE enable_embedding = ${true} AND archived = ${false} ORDER BY name, id`,
    );
    return typedRows<CardName>(rows, ID_SHAPE);
  }

  /** Unarchived cards with a public link, by name. */
  async withPublicLinks(): Promise<PublicCard[]> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, name, public_uuid FROM report_card WHERE public_uuid IS NOT NULL AND archived = ${false} ORDER BY name, id`,
    );
    return typedRows<PublicCard>(rows, ID_SHAPE);
  }

  /** The card types (`question`, `model`, `metric`) found in each collection among `collectionIds`. */
  async typesIn(collectionIds: number[], archived: boolean): Promise<CollectionCardType[]> {
    if (collectionIds.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT DISTINCT collection_id, type FROM report_card
        WHERE archived = ${archived} AND ${this.sql.idIn(raw('collection_id'), collectionIds)}`,
    );
    return typedRows<CollectionCardType>(rows, COLLECTION_CARD_TYPE_SHAPE);
  }

  /** The ids of the cards in these collections, archived or not (in `tx` when given). */
  async idsInCollections(collectionIds: number[], tx?: EntityManager): Promise<number[]> {
    const statement = sql`SELECT id FROM report_card WHERE ${inList(raw('collection_id'), collectionIds)}`;
    const rows = tx ? await this.inTx<Record<string, unknown>>(tx, statement) : await this.sql.query<Record<string, unknown>>(statement);
    return idsOf(rows);
  }

  /**
   * Archiving collections archives the cards in them that are not archived yet; unarchiving restores those, and
   * leaves the cards archived on their own before.
   */
  archiveInCollections(tx: EntityManager, collectionIds: number[], archived: boolean): Promise<void> {
    return archiveWithCollections(tx, 'report_card', collectionIds, archived);
  }

  /** Whether a database, table or card of this id exists. */
  async exists(kind: 'database' | 'table' | 'card', id: number): Promise<boolean> {
    const table = raw(kind === 'database' ? 'metabase_database' : kind === 'table' ? 'metabase_table' : 'report_card');
    return (await this.sql.query(sql`SELECT id FROM ${table} WHERE id = ${id}`)).length > 0;
  }

  /** A statement in the caller's transaction (its runner takes `?` on SQLite; each value is used once, in order). */
  private async inTx<T = unknown>(tx: EntityManager, statement: Sql): Promise<T[]> {
    const { text, values } = statement.numbered();
    return tx.query(
      this.sql.pg ? text : text.replace(/\$\d+/g, '?'),
      values.map((v) => (!this.sql.pg && typeof v === 'boolean' ? Number(v) : v)),
    );
  }

  /** Every read of whole card rows goes through here, so each is typed once (CARD_ROW_SHAPE). */
  private async rows(where: Sql, order = 'c.name, c.id', limit?: number): Promise<CardRow[]> {
    const limited = limit ? sql` LIMIT ${Math.floor(limit)}` : raw('');
    const rows = await this.sql.query<Record<string, unknown>>(sql`${raw(SELECT)} WHERE ${where} ORDER BY ${raw(order)}${limited}`);
    return typedRows<CardRow>(rows, CARD_ROW_SHAPE);
  }

  /** Collections by id (the ancestors of a card's collection), in one query. */
  async collections(ids: number[]): Promise<CollectionName[]> {
    if (ids.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT id, name, location, personal_owner_id, authority_level, slug, entity_id FROM collection WHERE ${inList(raw('id'), ids)}`,
    );
    return typedRows<CollectionName>(rows, COLLECTION_NAME_SHAPE);
  }

  /** The author and time of each card's latest revision. */
  async lastEdits(cardIds: number[]): Promise<Map<number, LastEdit>> {
    if (cardIds.length === 0) return new Map();
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM revision r JOIN core_user u ON u.id = r.user_id
       WHERE r.model = 'card' AND r.most_recent = ${true} AND ${inList(raw('r.model_id'), cardIds)}`,
    );
    return byCard(typedRows<LastEdit>(rows, LAST_EDIT_SHAPE));
  }

  /** The latest revision's author and time of every card matching `where` (on `c`), in one query however many. */
  private async lastEditsWhere(where: Sql): Promise<Map<number, LastEdit>> {
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM report_card c
       JOIN revision r ON r.model = 'card' AND r.model_id = c.id AND r.most_recent = ${true}
       JOIN core_user u ON u.id = r.user_id
       WHERE ${where}`,
    );
    return byCard(typedRows<LastEdit>(rows, LAST_EDIT_SHAPE));
  }

  /** Average running time (ms) and latest start of the card's logged runs. */
  async queryStats(cardId: number): Promise<{ average: number | null; last: Date | string | null }> {
    const [row] = await this.sql.query<Record<string, unknown>>(
      'SELECT AVG(running_time) AS average, MAX(started_at) AS last FROM query_execution WHERE card_id = $1 AND cache_hit = $2',
      [cardId, false],
    );
    // AVG is numeric text on Postgres.
    const r = row && typedRow<{ average: number | null; last: Date | string | null }>(row, { numbers: ['average'] });
    return { average: r?.average === null || r?.average === undefined ? null : Math.round(r.average), last: r?.last ?? null };
  }

  /** The dashboards each card is on (archived ones too, as Metabase lists them), once per card and dashboard, by card then dashboard id. */
  async dashboardsShowing(cardIds: number[]): Promise<DashboardShowing[]> {
    if (cardIds.length === 0) return [];
    const rows = await this.sql.query<Record<string, unknown>>(
      sql`SELECT x.card_id, d.id, d.name, d.collection_id, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id
       FROM (SELECT card_id, dashboard_id FROM report_dashboardcard WHERE ${this.sql.idIn(raw('card_id'), cardIds)}
             UNION
             SELECT s.card_id, dc.dashboard_id FROM dashboardcard_series s JOIN report_dashboardcard dc ON dc.id = s.dashboardcard_id
             WHERE ${this.sql.idIn(raw('s.card_id'), cardIds)}) x
       JOIN report_dashboard d ON d.id = x.dashboard_id
       LEFT JOIN collection col ON col.id = d.collection_id
       ORDER BY x.card_id, d.id`,
    );
    return typedRows<DashboardShowing>(rows, DASHBOARD_SHOWING_SHAPE);
  }

  async dashboardName(id: number): Promise<string | null> {
    const [r] = await this.sql.query<{ name: string }>('SELECT name FROM report_dashboard WHERE id = $1', [id]);
    return r?.name ?? null;
  }

  /** A model whose results are stored in its database and read from there (persistence module). */
  async isPersisted(cardId: number): Promise<boolean> {
    const rows = await this.sql.query("SELECT 1 AS x FROM persisted_info WHERE card_id = $1 AND state = 'persisted' AND active = $2", [
      cardId,
      true,
    ]);
    return rows.length > 0;
  }

  async databaseExists(dbId: number): Promise<boolean> {
    return (await this.sql.query('SELECT id FROM metabase_database WHERE id = $1', [dbId])).length > 0;
  }

  async databaseCacheTtl(dbId: number): Promise<number | null> {
    const [r] = await this.sql.query<{ cache_ttl: number | null }>('SELECT cache_ttl FROM metabase_database WHERE id = $1', [dbId]);
    return r?.cache_ttl ?? null;
  }

  async bumpViews(cardId: number): Promise<void> {
    await this.sql.execute('UPDATE report_card SET view_count = view_count + 1, last_used_at = $2 WHERE id = $1', [cardId, new Date()]);
  }

  /** `report_card.dashboard_id`: the dashboard a question was saved into (a column the Card entity does not map). */
  async setDashboard(tx: EntityManager, cardId: number, dashboardId: number | null): Promise<void> {
    await this.inTx(tx, sql`UPDATE report_card SET dashboard_id = ${dashboardId} WHERE id = ${cardId}`);
  }

  /** Questions saved into a dashboard that stay when it goes become ordinary questions. */
  async releaseFromDashboard(tx: EntityManager, dashboardId: number): Promise<void> {
    await this.inTx(tx, sql`UPDATE report_card SET dashboard_id = NULL WHERE dashboard_id = ${dashboardId}`);
  }

  /** Questions saved into a dashboard follow it to its new collection. */
  async moveWithDashboard(tx: EntityManager, dashboardId: number, collectionId: number | null): Promise<void> {
    await this.inTx(tx, sql`UPDATE report_card SET collection_id = ${collectionId} WHERE dashboard_id = ${dashboardId}`);
  }

  /** Forgets what a card being deleted refers to. */
  async deleteReferences(tx: EntityManager, cardId: number): Promise<void> {
    await tx.createQueryBuilder().delete().from('card_reference').where('card_id = :cardId', { cardId }).execute();
  }

  /** Rewrites what the card's query refers to (for the `using_*` filters). */
  async replaceReferences(tx: EntityManager, cardId: number, refs: DerivedQuery['references']): Promise<void> {
    await tx.createQueryBuilder().delete().from('card_reference').where('card_id = :cardId', { cardId }).execute();
    if (refs.length)
      await tx
        .createQueryBuilder()
        .insert()
        .into('card_reference')
        .values(refs.map((r) => ({ card_id: cardId, kind: r.kind, ref_id: r.ref_id })))
        .execute();
  }
}

function byCard(edits: LastEdit[]): Map<number, LastEdit> {
  return new Map(edits.map((e) => [e.card_id, e]));
}
