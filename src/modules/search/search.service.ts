import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { CollectionAccessService, SqlCondition } from '../collections/collection-access.service';
import { commonName } from '../users/user.view';
import { DatabaseAccessService } from '../warehouse/database-access.service';
import { MAX_WORDS, SEARCH_MODELS, SearchFilter } from './search-branches';
import { SearchQuery } from './search.dto';
import { Readable, SearchRepository, SearchRow } from './search.repository';
import { searchWords } from './search-terms';
import { sqlTime } from './sql-time';

/** A page without `limit` holds at most this many (Metabase's search also stops at 1,000). */
const MAX_RESULTS = 1000;

const asBool = (v: unknown) => v === true || v === 1 || v === '1';
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * GET /api/search: what the caller may read (collections and cards by collection grants, tables and databases by
 * data permissions, snippets for everyone), matching every word of q as a word prefix, best matches first.
 * Two statements whatever the number of objects (the counts per model, and the page), then a few lookups for the page.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly repo: SearchRepository,
    private readonly collections: CollectionAccessService,
    private readonly databases: DatabaseAccessService,
  ) {}

  async search(user: AuthUser, q: SearchQuery) {
    const words = searchWords(q.q).slice(0, MAX_WORDS);
    const filter: SearchFilter = {
      words,
      archived: q.archived ?? false,
      createdBy: q.created_by?.length ? q.created_by : null,
      tableDbId: q.table_db_id ?? null,
      readableDbs: await this.readableDbs(user),
    };
    const readable = this.readableConditions(user);
    const requested = new Set<string>(q.models?.length ? q.models : SEARCH_MODELS);
    const limit = Math.min(q.limit ?? MAX_RESULTS, MAX_RESULTS);
    const offset = q.offset ?? 0;
    const phrase = words.length ? (q.q ?? '').trim().toLowerCase() : null;
    const rows = await this.repo.page(filter, readable, requested, { phrase, userId: user.id, limit, offset });
    // Every row carries the counts; a page past the end (or of models without matches) asks for them apart.
    const counts = rows.length ? null : await this.repo.counts(filter, readable);
    const total = rows.length ? Number(rows[0].total_n) : [...counts!].reduce((n, [model, c]) => n + (requested.has(model) ? c : 0), 0);
    const available = SEARCH_MODELS.filter((m) => (rows.length ? Number(rows[0][`has_${m}`]) === 1 : (counts!.get(m) ?? 0) > 0));
    return {
      data: await this.hydrate(rows),
      total,
      limit: q.limit ?? null,
      offset: q.offset ?? null,
      models: q.models?.length ? q.models : null,
      available_models: available,
      table_db_id: q.table_db_id ?? null,
    };
  }

  /**
   * The caller's readable-collection condition per column, computed once per request (it costs lookups) and
   * renumbered for wherever a statement puts it.
   */
  private readableConditions(user: AuthUser): Readable {
    const once = new Map<string, Promise<SqlCondition>>();
    return (column) => async (first) => {
      if (!once.has(column)) once.set(column, this.collections.readableCondition(user, column, 1));
      const c = await once.get(column)!;
      return { sql: c.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + first - 1}`), params: c.params };
    };
  }

  private async readableDbs(user: AuthUser): Promise<number[] | 'all'> {
    const map = await this.databases.accessMap(user);
    if (map === 'all') return 'all';
    return [...map].filter(([, a]) => a.data === 'unrestricted').map(([id]) => id);
  }

  private async hydrate(rows: SearchRow[]) {
    const tableIds = rows.filter((r) => r.model === 'table').map((r) => Number(r.id));
    const tables = await this.repo.tables(tableIds);
    return rows.map((r) => {
      const collectionId = r.collection_name === null ? null : num(r.collection_id);
      const table = r.model === 'table' ? tables.get(Number(r.id)) : undefined;
      const creator = r.creator_email === null ? null : { first_name: r.creator_first_name, last_name: r.creator_last_name, email: r.creator_email };
      return {
        model: r.model,
        id: Number(r.id),
        name: r.name,
        description: r.description,
        archived: asBool(r.archived),
        collection: { id: collectionId, name: r.collection_name, authority_level: r.collection_authority_level },
        collection_id: collectionId,
        database_id: num(r.database_id),
        table_id: num(r.table_id),
        creator_id: num(r.creator_id),
        creator_common_name: creator ? commonName(creator) : null,
        display: r.display,
        updated_at: sqlTime(r.updated_at),
        bookmark: asBool(r.bookmarked),
        ...(table ? { table_name: table.name, table_schema: table.schema, display_name: table.display_name } : {}),
      };
    });
  }
}
