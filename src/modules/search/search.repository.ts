import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { inList, join, raw, sql, type Sql } from '../../common/database/sql';
import { hitCte, SEARCH_BRANCHES, SEARCH_COLUMNS, SEARCH_MODELS, SearchFilter } from './search-branches';

/** The caller's readable-collection condition on a column. */
export type Readable = (column: string) => Promise<Sql>;
import { likePrefix } from './search-range';

/** One row of a search page, before hydration. */
export interface SearchRow {
  model: string;
  id: number;
  name: string;
  description: string | null;
  archived: boolean | number;
  collection_id: number | null;
  database_id: number | null;
  table_id: number | null;
  creator_id: number | null;
  updated_at: Date | string | null;
  display: string | null;
  bookmarked: number;
  created_at: Date | string | null;
  collection_position: number | null;
  collection_name: string | null;
  collection_authority_level: string | null;
  collection_location: string | null;
  collection_personal_owner_id: number | null;
  creator_first_name: string | null;
  creator_last_name: string | null;
  creator_email: string | null;
  total_n: number | string;
  [hasModel: `has_${string}`]: number | string;
}

export interface PageRequest {
  /** The text of q as typed, lower-cased and trimmed (for exact and prefix name matches); null without q. */
  phrase: string | null;
  userId: number;
  limit: number;
  offset: number;
}

/**
 * The search statements: every kind of object is one branch of a UNION ALL (`found`), ranked and paged in SQL.
 * With words, indexed kinds start from the word index (`hit`), so no statement reads every card.
 */
@Injectable()
export class SearchRepository {
  private readonly sql: AppSql;

  constructor(db: DataSource) {
    this.sql = new AppSql(db);
  }

  /** How many objects of each model match (whatever `models` asked): for a page that came back empty. */
  async counts(f: SearchFilter, readable: Readable): Promise<Map<string, number>> {
    const found = await this.found(f, readable);
    if (!found) return new Map();
    const rows = await this.sql.query<{ model: string; n: number | string }>(
      sql`${found} SELECT model, COUNT(*) AS n FROM found GROUP BY model`,
    );
    return new Map(rows.map((r) => [r.model, Number(r.n)]));
  }

  /**
   * One page of the `models` asked for, best first: the exact name, then names starting with q, then every word in
   * the name, then the caller's bookmarks, then the most recently changed. Each row also carries the number of
   * matches among those models (`total_n`) and which models match at all (`has_<model>`), so one statement answers.
   */
  async page(f: SearchFilter, readable: Readable, models: ReadonlySet<string>, page: PageRequest): Promise<SearchRow[]> {
    const found = await this.found(f, readable);
    if (!found) return [];
    const wanted = (column: string) => inList(raw(column), [...models]);
    // The caller's bookmarks are few: one hash join, not a probe per match.
    const bookmarks = sql`LEFT JOIN (SELECT model, model_id FROM bookmark WHERE user_id = ${page.userId}) bm
      ON bm.model = CASE WHEN f.model IN ('card', 'dataset', 'metric') THEN 'card' ELSE f.model END AND bm.model_id = f.id`;
    const nameRank = page.phrase
      ? sql`CASE WHEN LOWER(f.name) = ${page.phrase} THEN 0
          WHEN LOWER(f.name) LIKE ${likePrefix(page.phrase)} ESCAPE '\\' THEN 1 ELSE 2 END`
      : raw('0');
    const has = raw(SEARCH_MODELS.map((m) => `MAX(CASE WHEN f.model = '${m}' THEN 1 ELSE 0 END) OVER () AS has_${m}`).join(', '));
    return this.sql.query<SearchRow>(
      sql`${found}, ranked AS (
         SELECT f.*, CASE WHEN bm.model_id IS NULL THEN 0 ELSE 1 END AS bookmarked, ${nameRank} AS name_rank,
           SUM(CASE WHEN ${wanted('f.model')} THEN 1 ELSE 0 END) OVER () AS total_n, ${has}
         FROM found f ${bookmarks})
       SELECT r.*, c.name AS collection_name, c.authority_level AS collection_authority_level,
         c.location AS collection_location, c.personal_owner_id AS collection_personal_owner_id,
         u.first_name AS creator_first_name, u.last_name AS creator_last_name, u.email AS creator_email
       FROM (SELECT * FROM ranked WHERE ${wanted('model')}
             ORDER BY name_rank, in_name DESC, bookmarked DESC, updated_at DESC, model, id
             LIMIT ${page.limit} OFFSET ${page.offset}) r
       LEFT JOIN collection c ON c.id = r.collection_id
       LEFT JOIN core_user u ON u.id = r.creator_id
       ORDER BY r.name_rank, r.in_name DESC, r.bookmarked DESC, r.updated_at DESC, r.model, r.id`,
    );
  }

  /**
   * `WITH [words...,] found AS (...)`: the collection-governed branches filtered together by the caller's collection
   * access (one grant lookup), then the others; null when no branch applies.
   */
  private async found(f: SearchFilter, readable: Readable): Promise<Sql | null> {
    const ctes = f.words.length ? [hitCte(f.words)] : [];
    const all = new Set<string>(SEARCH_MODELS);
    const governed = SEARCH_BRANCHES.filter((b) => b.collectionGoverned)
      .map((b) => b.sql(f, all))
      .filter((s): s is Sql => s !== null);
    const branches: Sql[] = [];
    if (governed.length) {
      // With words, materialized (the matches are few): the access condition's grant lookup then runs once, not
      // once per branch. Without, every object is a row: storing them all costs more than a second lookup.
      ctes.push(sql`governed AS ${raw(f.words.length ? 'MATERIALIZED ' : '')}(${join(governed, ' UNION ALL ')})`);
      branches.push(sql`SELECT ${raw(SEARCH_COLUMNS)} FROM governed g WHERE ${await readable('g.acc_id')}`);
    }
    for (const b of SEARCH_BRANCHES.filter((x) => !x.collectionGoverned)) {
      const s = b.sql(f, all);
      if (s) branches.push(s);
    }
    if (branches.length === 0) return null;
    return sql`WITH ${join([...ctes, sql`found AS (${join(branches, ' UNION ALL ')})`])}`;
  }
}
