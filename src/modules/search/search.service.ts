import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { Sql } from '../../common/database/sql';
import { CollectionAccessService } from '../collections';
import { DatabaseAccessService } from '../warehouse';
import { MAX_WORDS, SEARCH_MODELS, SearchFilter } from './search-branches';
import { SearchDetailsRepository } from './search-details.repository';
import { toSearchResult } from './search-result';
import { SearchQuery } from './search.dto';
import { Readable, SearchRepository, SearchRow } from './search.repository';
import { searchWords } from './search-terms';

/** A page without `limit` holds at most this many (Metabase's search also stops at 1,000). */
const MAX_RESULTS = 1000;

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
    private readonly details: SearchDetailsRepository,
  ) {}

  async search(user: AuthUser, q: SearchQuery) {
    const words = searchWords(q.q).slice(0, MAX_WORDS);
    const filter: SearchFilter = {
      words,
      archived: q.archived ?? false,
      createdBy: q.created_by?.length ? q.created_by : null,
      tableDbId: q.table_db_id ?? null,
      readableDbs: await this.readableDbs(user),
      viewableTables: await this.databases.viewScope(user),
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
      data: await this.hydrate(user, rows),
      total,
      limit: q.limit ?? null,
      offset: q.offset ?? null,
      models: q.models?.length ? q.models : null,
      available_models: available,
      table_db_id: q.table_db_id ?? null,
    };
  }

  /** The caller's readable-collection condition per column, computed once per request (it costs lookups). */
  private readableConditions(user: AuthUser): Readable {
    const once = new Map<string, Promise<Sql>>();
    return (column) => {
      if (!once.has(column)) once.set(column, this.collections.readableWhere(user, column));
      return once.get(column)!;
    };
  }

  private async readableDbs(user: AuthUser): Promise<number[] | 'all'> {
    const map = await this.databases.accessMap(user);
    if (map === 'all') return 'all';
    return [...map].filter(([, a]) => a.data === 'unrestricted').map(([id]) => id);
  }

  /** The page's rows with their details, each kind looked up once for the whole page. */
  private async hydrate(user: AuthUser, rows: SearchRow[]) {
    const idsOf = (...models: string[]) => rows.filter((r) => models.includes(r.model)).map((r) => Number(r.id));
    const cardIds = idsOf('card', 'dataset', 'metric');
    const dashboardIds = idsOf('dashboard');
    const [edits, cards, tables, dbs, canWrite] = await Promise.all([
      this.details.lastEdits(cardIds, dashboardIds),
      this.details.cards(cardIds),
      this.details.tables(idsOf('table')),
      this.details.databaseSyncStatus(idsOf('database')),
      this.writable(
        user,
        rows.filter((r) => r.model !== 'collection' && r.model !== 'snippet' && r.model !== 'table' && r.model !== 'database'),
      ),
    ]);
    const editOf = new Map(edits.map((e) => [`${e.model === 'card' ? 'card' : 'dashboard'}:${e.model_id}`, e]));
    return rows.map((r) => {
      const id = Number(r.id);
      const isCard = r.model === 'card' || r.model === 'dataset' || r.model === 'metric';
      return toSearchResult(r, {
        lastEdit: isCard ? editOf.get(`card:${id}`) : r.model === 'dashboard' ? editOf.get(`dashboard:${id}`) : undefined,
        card: isCard ? cards.get(id) : undefined,
        table: r.model === 'table' ? tables.get(id) : undefined,
        initialSyncStatus: r.model === 'database' ? (dbs.get(id) ?? null) : undefined,
        canWrite: isCard || r.model === 'dashboard' ? canWrite(r) : undefined,
      });
    });
  }

  /** Whether the caller may change each card and dashboard of the page: its collection decides (a few queries in all). */
  private async writable(user: AuthUser, rows: SearchRow[]): Promise<(r: SearchRow) => boolean> {
    // collection_id is kept only where the collection was found (see toSearchResult); a missing one counts as Root.
    const inCollection = rows.filter((r) => r.collection_name !== null && r.collection_id !== null);
    const places = inCollection.map((r) => ({
      id: Number(r.collection_id),
      location: r.collection_location ?? '/',
      personal_owner_id: num(r.collection_personal_owner_id),
    }));
    const perms = await this.collections.forCollections(user, places);
    const atRoot = rows.length > inCollection.length ? await this.collections.canWrite(user, null) : false;
    return (r) => (r.collection_name !== null && r.collection_id !== null ? perms.get(Number(r.collection_id)) === 'write' : atRoot);
  }
}
