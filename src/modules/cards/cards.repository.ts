import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import type { DerivedQuery } from './card-query';
import { cardListSelect, type CardJsonRow } from './card-list-sql';

/** A card as the listings and the mapper read it: the card's columns, its collection's and its creator's. */
export interface CardRow {
  id: number;
  name: string;
  description: string | null;
  display: string;
  dataset_query: string;
  visualization_settings: string;
  parameters: string | null;
  parameter_mappings: string | null;
  result_metadata: string | null;
  type: string;
  query_type: string | null;
  database_id: number | null;
  table_id: number | null;
  source_card_id: number | null;
  /** Set on a question saved into a dashboard (it lives there only). */
  dashboard_id?: number | null;
  collection_id: number | null;
  collection_position: number | null;
  cache_ttl: number | null;
  archived: boolean | number;
  collection_preview: boolean | number;
  enable_embedding: boolean | number;
  embedding_params: string | null;
  public_uuid: string | null;
  made_public_by_id: number | null;
  creator_id: number;
  entity_id: string | null;
  view_count: number;
  last_used_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  coll_name: string | null;
  coll_location: string | null;
  coll_personal_owner_id: number | null;
  coll_authority_level: string | null;
  coll_archived: boolean | number | null;
  coll_slug: string | null;
  coll_entity_id: string | null;
  coll_namespace: string | null;
  coll_description: string | null;
  u_email: string | null;
  u_first_name: string | null;
  u_last_name: string | null;
  u_is_superuser: boolean | number | null;
  u_is_qbnewb: boolean | number | null;
  u_date_joined: Date | string | null;
  u_last_login: Date | string | null;
}

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
  c.collection_id, c.collection_position, c.collection_preview, c.cache_ttl, c.archived, c.enable_embedding, c.public_uuid,
  c.made_public_by_id, c.creator_id, c.entity_id, c.view_count, c.last_used_at, c.created_at, c.updated_at, c.dataset_query,
  col.name AS coll_name, col.location AS coll_location, col.personal_owner_id AS coll_personal_owner_id,
  col.authority_level AS coll_authority_level, col.archived AS coll_archived,
  u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name
FROM report_card c
LEFT JOIN collection col ON col.id = c.collection_id
LEFT JOIN core_user u ON u.id = c.creator_id`;

/** A card as a listing reads it (see LIST_SELECT). */
export type CardListRow = Omit<
  CardRow,
  'visualization_settings' | 'parameters' | 'parameter_mappings' | 'result_metadata' | 'embedding_params' | 'coll_slug' | 'coll_entity_id' | 'coll_namespace' | 'coll_description' | 'u_is_superuser' | 'u_is_qbnewb' | 'u_date_joined' | 'u_last_login'
>;

export interface CollectionName {
  id: number;
  name: string;
  location: string;
  personal_owner_id: number | null;
  authority_level: string | null;
  slug: string | null;
  entity_id: string | null;
}

export interface LastEdit {
  card_id: number;
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  timestamp: Date | string;
}

/** Every app-DB query of the cards module that is more than a find by id. */
@Injectable()
export class CardsRepository {
  readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  async row(id: number): Promise<CardRow | null> {
    return (await this.sql.query<CardRow>(`${SELECT} WHERE c.id = $1`, [id]))[0] ?? null;
  }

  /** Cards matching `where` (its values numbered from $1), in `order`. */
  rows(where: string, params: unknown[], order = 'c.name, c.id', limit?: number): Promise<CardRow[]> {
    return this.sql.query<CardRow>(`${SELECT} WHERE ${where} ORDER BY ${order}${limit ? ` LIMIT ${Math.floor(limit)}` : ''}`, params);
  }

  /** GET /api/card/'s cards matching `where`, each as the JSON the app database built (card-list-sql.ts). */
  jsonRows(where: string, params: unknown[], order = 'c.name, c.id'): Promise<CardJsonRow[]> {
    return this.sql.query<CardJsonRow>(`${cardListSelect(this.sql.pg)} WHERE ${where} ORDER BY ${order}`, params);
  }

  /** Cards matching `where` with the listing's columns only. */
  listRows(where: string, params: unknown[], order = 'c.name, c.id'): Promise<CardListRow[]> {
    return this.sql.query<CardListRow>(`${LIST_SELECT} WHERE ${where} ORDER BY ${order}`, params);
  }

  /** Collections by id (the ancestors of a card's collection), in one query. */
  async collections(ids: number[]): Promise<CollectionName[]> {
    if (ids.length === 0) return [];
    return this.sql.query<CollectionName>(
      `SELECT id, name, location, personal_owner_id, authority_level, slug, entity_id FROM collection WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
  }

  /** The author and time of each card's latest revision. */
  async lastEdits(cardIds: number[]): Promise<Map<number, LastEdit>> {
    if (cardIds.length === 0) return new Map();
    const rows = await this.sql.query<LastEdit>(
      `SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM revision r JOIN core_user u ON u.id = r.user_id
       WHERE r.model = 'card' AND r.most_recent = $1 AND r.model_id IN (${cardIds.map((_, i) => `$${i + 2}`).join(', ')})`,
      [true, ...cardIds],
    );
    return new Map(rows.map((r) => [Number(r.card_id), r]));
  }

  /** The latest revision's author and time of every card matching `where` (on `c`, values from $1), in one query however many. */
  async lastEditsWhere(where: string, params: unknown[]): Promise<Map<number, LastEdit>> {
    const rows = await this.sql.query<LastEdit>(
      `SELECT r.model_id AS card_id, u.id, u.email, u.first_name, u.last_name, r.timestamp
       FROM report_card c
       JOIN revision r ON r.model = 'card' AND r.model_id = c.id AND r.most_recent = $${params.length + 1}
       JOIN core_user u ON u.id = r.user_id
       WHERE ${where}`,
      [...params, true],
    );
    return new Map(rows.map((r) => [Number(r.card_id), r]));
  }

  /** Average running time (ms) and latest start of the card's logged runs. */
  async queryStats(cardId: number): Promise<{ average: number | null; last: Date | string | null }> {
    const [r] = await this.sql.query<{ average: number | string | null; last: Date | string | null }>(
      'SELECT AVG(running_time) AS average, MAX(started_at) AS last FROM query_execution WHERE card_id = $1 AND cache_hit = $2',
      [cardId, false],
    );
    return { average: r?.average === null || r?.average === undefined ? null : Math.round(Number(r.average)), last: r?.last ?? null };
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

  /** Rewrites what the card's query refers to (for the `using_*` filters). */
  async replaceReferences(tx: EntityManager, cardId: number, refs: DerivedQuery['references']): Promise<void> {
    await tx.createQueryBuilder().delete().from('card_reference').where('card_id = :cardId', { cardId }).execute();
    if (refs.length) await tx.createQueryBuilder().insert().into('card_reference').values(refs.map((r) => ({ card_id: cardId, kind: r.kind, ref_id: r.ref_id }))).execute();
  }
}
