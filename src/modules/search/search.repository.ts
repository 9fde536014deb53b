import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppSql } from '../../common/database/app-sql';
import { hitCte, SEARCH_BRANCHES, SearchFilter, SqlParams } from './search-branches';
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

  /** How many objects of each model match (whatever `models` asked): `total` and `available_models`. */
  async counts(f: SearchFilter, models: ReadonlySet<string>): Promise<Map<string, number>> {
    const p = new SqlParams();
    const found = await this.found(f, models, p);
    if (!found) return new Map();
    const rows = await this.sql.query<{ model: string; n: number | string }>(`${found} SELECT model, COUNT(*) AS n FROM found GROUP BY model`, p.values);
    return new Map(rows.map((r) => [r.model, Number(r.n)]));
  }

  /**
   * One page, best first: the exact name, then names starting with q, then every word in the name, then the
   * caller's bookmarks, then the most recently changed.
   */
  async page(f: SearchFilter, models: ReadonlySet<string>, page: PageRequest): Promise<SearchRow[]> {
    const p = new SqlParams();
    const found = await this.found(f, models, p);
    if (!found) return [];
    const bookmarked = `CASE WHEN EXISTS (SELECT 1 FROM bookmark b WHERE b.user_id = ${p.add(page.userId)}
      AND b.model = CASE WHEN f.model IN ('card', 'dataset', 'metric') THEN 'card' ELSE f.model END AND b.model_id = f.id) THEN 1 ELSE 0 END`;
    const nameRank = page.phrase
      ? `CASE WHEN LOWER(f.name) = ${p.add(page.phrase)} THEN 0 WHEN LOWER(f.name) LIKE ${p.add(likePrefix(page.phrase))} ESCAPE '\\' THEN 1 ELSE 2 END, `
      : '';
    return this.sql.query<SearchRow>(
      `${found} SELECT f.*, ${bookmarked} AS bookmarked FROM found f
       ORDER BY ${nameRank}f.in_name DESC, bookmarked DESC, f.updated_at DESC, f.model, f.id
       LIMIT ${p.add(page.limit)} OFFSET ${p.add(page.offset)}`,
      p.values,
    );
  }

  /** The names and authority of collections, by id. */
  async collections(ids: number[]): Promise<Map<number, { name: string; authority_level: string | null }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; name: string; authority_level: string | null }>(
      `SELECT id, name, authority_level FROM collection WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), { name: r.name, authority_level: r.authority_level }]));
  }

  async users(ids: number[]): Promise<Map<number, { first_name: string | null; last_name: string | null; email: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; first_name: string | null; last_name: string | null; email: string }>(
      `SELECT id, first_name, last_name, email FROM core_user WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  async tables(ids: number[]): Promise<Map<number, { name: string; schema: string | null; display_name: string }>> {
    if (ids.length === 0) return new Map();
    const rows = await this.sql.query<{ id: number; name: string; schema: string | null; display_name: string }>(
      `SELECT id, name, schema, display_name FROM metabase_table WHERE id IN (${ids.map((_, i) => `$${i + 1}`).join(', ')})`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  /** `WITH [words...,] found AS (branch UNION ALL branch ...)`, or null when no branch applies. */
  private async found(f: SearchFilter, models: ReadonlySet<string>, p: SqlParams): Promise<string | null> {
    const ctes = f.words.length ? [hitCte(f.words, p)] : [];
    const branches: string[] = [];
    for (const b of SEARCH_BRANCHES) {
      const s = await b.sql(f, models, p);
      if (s) branches.push(s);
    }
    if (branches.length === 0) return null;
    return `WITH ${[...ctes, `found AS (${branches.join(' UNION ALL ')})`].join(', ')}`;
  }
}
