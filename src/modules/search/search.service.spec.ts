import { TRUE } from '../../common/database/sql';
import type { AuthUser } from '../../common/auth/current-user';
import type { CollectionAccessService } from '../collections';
import type { DatabaseAccessService } from '../warehouse';
import type { Access } from '../warehouse/database-permissions.repository';
import { MAX_WORDS, SEARCH_MODELS, type SearchFilter } from './search-branches';
import type { LastEditRow, SearchDetailsRepository } from './search-details.repository';
import type { SearchQuery } from './search.dto';
import type { PageRequest, Readable, SearchRepository, SearchRow } from './search.repository';
import { SearchService } from './search.service';

/** SearchService: the filter and page it asks for, the totals it answers, and what it adds to each row; collaborators mocked. */
describe('SearchService', () => {
  const user: AuthUser = { id: 7, isSuperuser: false, groupIds: [1] };
  const access = (data: string) => ({ data, native: 'none', download: 'none' }) as unknown as Access;

  /** A page row as the repository gives it: the totals ride on every row. */
  const row = (model: string, id: number, collection: { id: number; name: string } | null = null): SearchRow => ({
    model,
    id,
    name: `${model} ${id}`,
    description: null,
    archived: false,
    collection_id: collection?.id ?? null,
    database_id: null,
    table_id: null,
    creator_id: null,
    updated_at: null,
    display: null,
    bookmarked: 0,
    created_at: null,
    collection_position: null,
    collection_name: collection?.name ?? null,
    collection_authority_level: null,
    collection_location: collection ? '/' : null,
    collection_personal_owner_id: null,
    creator_first_name: null,
    creator_last_name: null,
    creator_email: null,
    total_n: 12,
    has_card: 1,
    has_dashboard: 1,
    has_table: 0,
  });

  function setup(rows: SearchRow[] = [], counts = new Map<string, number>()) {
    const repo = { page: jest.fn().mockResolvedValue(rows), counts: jest.fn().mockResolvedValue(counts) };
    const collections = {
      readableWhere: jest.fn().mockResolvedValue(TRUE),
      forCollections: jest.fn(async () => new Map([[20, 'write']])),
      canWrite: jest.fn().mockResolvedValue(false),
    };
    const databases = {
      viewScope: jest.fn().mockResolvedValue({ dbs: [1, 3], tables: [] }),
      accessMap: jest.fn().mockResolvedValue(
        new Map([
          [1, access('unrestricted')],
          [2, access('no-self-service')],
          [3, access('unrestricted')],
        ]),
      ),
    };
    const edit: LastEditRow = {
      model: 'card',
      model_id: 1,
      user_id: 4,
      timestamp: '2024-02-01 10:00:00',
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@x.org',
    };
    const details = {
      lastEdits: jest.fn().mockResolvedValue([edit]),
      cards: jest.fn().mockResolvedValue(new Map([[1, { dashboard_id: null, dashboardcard_count: 2 }]])),
      tables: jest.fn().mockResolvedValue(new Map()),
      databaseSyncStatus: jest.fn().mockResolvedValue(new Map([[9, 'complete']])),
    };
    const service = new SearchService(
      repo as unknown as SearchRepository,
      collections as unknown as CollectionAccessService,
      databases as unknown as DatabaseAccessService,
      details as unknown as SearchDetailsRepository,
    );
    return { service, repo, collections, databases, details };
  }

  const pageCall = (m: ReturnType<typeof setup>) => m.repo.page.mock.calls[0] as [SearchFilter, Readable, ReadonlySet<string>, PageRequest];

  it('asks for one page with the words of q, the readable databases and the requested models', async () => {
    const m = setup();
    const q: SearchQuery = {
      q: '  Orders BY orders, Month ',
      models: ['card', 'dashboard'],
      created_by: [4],
      table_db_id: 1,
      limit: 5,
      offset: 10,
    };
    await m.service.search(user, q);
    const [filter, , models, page] = pageCall(m);
    expect(filter).toEqual({
      words: ['orders', 'by', 'month'],
      archived: false,
      createdBy: [4],
      tableDbId: 1,
      readableDbs: [1, 3],
      viewableTables: { dbs: [1, 3], tables: [] },
    });
    expect([...models]).toEqual(['card', 'dashboard']);
    expect(page).toEqual({ phrase: 'orders by orders, month', userId: 7, limit: 5, offset: 10 });
  });

  it('defaults to every model, the first 1,000, no phrase; an admin reads every database', async () => {
    const m = setup();
    m.databases.accessMap.mockResolvedValue('all');
    await m.service.search(user, { archived: true, created_by: [], limit: 5000 });
    const [filter, , models, page] = pageCall(m);
    expect(filter).toMatchObject({ words: [], archived: true, createdBy: null, tableDbId: null, readableDbs: 'all' });
    expect([...models]).toEqual([...SEARCH_MODELS]);
    expect(page).toEqual({ phrase: null, userId: 7, limit: 1000, offset: 0 });
  });

  it(`keeps at most ${MAX_WORDS} words of q`, async () => {
    const m = setup();
    const words = Array.from({ length: MAX_WORDS + 2 }, (_, i) => `w${i}`);
    await m.service.search(user, { q: words.join(' ') });
    expect(pageCall(m)[0].words).toEqual(words.slice(0, MAX_WORDS));
  });

  it('computes the readable-collection condition once per column however often the statements ask', async () => {
    const m = setup();
    await m.service.search(user, {});
    const readable = pageCall(m)[1];
    await Promise.all([readable('c.collection_id'), readable('c.collection_id'), readable('d.collection_id')]);
    expect(m.collections.readableWhere).toHaveBeenCalledTimes(2);
    expect(m.collections.readableWhere).toHaveBeenCalledWith(user, 'c.collection_id');
    expect(m.collections.readableWhere).toHaveBeenCalledWith(user, 'd.collection_id');
  });

  it("takes the total and the available models from the page's rows, without counting apart", async () => {
    const m = setup([row('card', 1), row('dashboard', 2)]);
    const r = await m.service.search(user, { q: 'x', limit: 2 });
    expect(m.repo.counts).not.toHaveBeenCalled();
    expect(r).toMatchObject({
      total: 12,
      limit: 2,
      offset: null,
      models: null,
      available_models: ['dashboard', 'card'],
      table_db_id: null,
    });
    expect(r.data.map((d) => d.id)).toEqual([1, 2]);
  });

  it('counts apart for an empty page: the total over the requested models, available over all', async () => {
    const m = setup(
      [],
      new Map([
        ['card', 3],
        ['table', 4],
        ['collection', 0],
      ]),
    );
    const r = await m.service.search(user, { q: 'x', models: ['card'], offset: 50 });
    expect(m.repo.counts).toHaveBeenCalledWith(pageCall(m)[0], pageCall(m)[1]);
    expect(r).toMatchObject({ data: [], total: 3, offset: 50, models: ['card'], available_models: ['card', 'table'] });
  });

  it('adds each row its details, looked up once per kind for the page', async () => {
    const m = setup([
      row('card', 1, { id: 20, name: 'Sales' }),
      row('metric', 5),
      row('dashboard', 2),
      row('collection', 20),
      row('database', 9),
    ]);
    const r = await m.service.search(user, {});
    expect(m.details.lastEdits).toHaveBeenCalledWith([1, 5], [2]);
    expect(m.details.cards).toHaveBeenCalledWith([1, 5]);
    expect(m.details.tables).toHaveBeenCalledWith([]);
    expect(m.details.databaseSyncStatus).toHaveBeenCalledWith([9]);
    const [card, metric, dashboard, collection, database] = r.data;
    expect(card).toMatchObject({ last_editor_id: 4, last_editor_common_name: 'Ann Lee', dashboardcard_count: 2, collection_id: 20 });
    expect(metric).toMatchObject({ last_editor_id: null, dashboardcard_count: null });
    expect(database).toMatchObject({ initial_sync_status: 'complete' });
    // can_write only on cards and dashboards: by their collection, or Root's when they have none.
    expect(card).toHaveProperty('can_write', true);
    expect(metric).toHaveProperty('can_write', false);
    expect(dashboard).toHaveProperty('can_write', false);
    expect(collection).not.toHaveProperty('can_write');
    expect(database).not.toHaveProperty('can_write');
    expect(m.collections.forCollections).toHaveBeenCalledWith(user, [{ id: 20, location: '/', personal_owner_id: null }]);
    expect(m.collections.canWrite).toHaveBeenCalledWith(user, null);
  });

  it('asks no Root permission when every writable row is in a found collection', async () => {
    const m = setup([row('card', 1, { id: 20, name: 'Sales' }), row('collection', 21)]);
    await m.service.search(user, {});
    expect(m.collections.canWrite).not.toHaveBeenCalled();
  });
});
