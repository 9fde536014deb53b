import { makeCard, makeModel, tableQuery } from '../support/card-factories';
import { grant, makeCollection, makeGroup } from '../support/collection-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { expect401 } from '../support/expect-wire';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

/** The keys of one GET /api/search result, as Metabase's search serializes them (its `all-search-columns`). */
const SEARCH_KEYS = [
  'model',
  'id',
  'name',
  'description',
  'archived',
  'collection',
  'collection_position',
  'creator_id',
  'created_at',
  'bookmark',
  'updated_at',
  'location',
  'dashboardcard_count',
  'last_edited_at',
  'last_editor_id',
  'moderated_status',
  'display',
  'dashboard_id',
  'table_id',
  'table_schema',
  'table_name',
  'table_description',
  'database_id',
  'initial_sync_status',
  'database_name',
  'model_id',
  'model_name',
  'pk_ref',
  'model_index_id',
  'context',
  'scores',
  'creator_common_name',
  'last_editor_common_name',
  'effective_location',
];
/** Keys of GET /api/collection/:id/items entries, per model (Metabase's union of columns, less what it drops per model). */
const ITEM_KEYS: Record<string, string[]> = {
  card: [
    'id',
    'name',
    'description',
    'entity_id',
    'display',
    'collection_preview',
    'collection_id',
    'model',
    'collection_position',
    'location',
    'moderated_status',
    'database_id',
    'archived',
    'last_used_at',
    'can_write',
    'can_restore',
    'can_delete',
    'fully_parameterized',
  ],
  dashboard: [
    'id',
    'name',
    'description',
    'entity_id',
    'collection_position',
    'last_used_at',
    'collection_id',
    'model',
    'archived',
    'location',
    'database_id',
    'can_write',
    'can_restore',
    'can_delete',
  ],
  collection: [
    'id',
    'name',
    'description',
    'entity_id',
    'location',
    'model',
    'authority_level',
    'archived',
    'database_id',
    'last_used_at',
    'collection_id',
    'can_write',
    'effective_location',
    'can_restore',
    'can_delete',
    'here',
    'below',
  ],
  timeline: [
    'id',
    'name',
    'entity_id',
    'collection_id',
    'model',
    'personal_owner_id',
    'location',
    'icon',
    'database_id',
    'archived',
    'last_used_at',
  ],
};
ITEM_KEYS.dataset = [...ITEM_KEYS.card, 'based_on_upload'];
/** Keys of GET /api/card/:id that Metabase hydrates or keeps as columns (besides the ones every card answer had before). */
const CARD_KEYS = [
  'based_on_upload',
  'can_run_adhoc_query',
  'can_manage_db',
  'parameter_usage_count',
  'can_restore',
  'can_delete',
  'dashboard',
  'archived_directly',
  'metabase_version',
  'initially_published_at',
  'cache_invalidated_at',
  'embedding_type',
  'can_write',
  'dashboard_count',
  'average_query_time',
  'last_query_start',
  'collection',
  'creator',
  'moderation_reviews',
  'last-edit-info',
  'type',
  'source_card_id',
  'dashboard_id',
  'entity_id',
];
const DASHBOARD_KEYS = [
  'embedding_type',
  'last_used_param_values',
  'can_write',
  'can_restore',
  'can_delete',
  'collection_authority_level',
  'param_fields',
  'tabs',
  'dashcards',
  'archived_directly',
  'initially_published_at',
  'moderation_reviews',
  'last-edit-info',
];

const missing = (o: Json, keys: string[]) => keys.filter((k) => !(k in o));

/**
 * Issue 31, items 9 and 11: every object of search, collection items and the card and dashboard GETs carries the keys
 * Metabase sends (its defaults where this server has nothing to say), and GET /api/pulse/form_input answers.
 */
describe('response keys Metabase clients read', () => {
  let s: SampleApp;
  let reader: MadeUser;
  let home: number;
  const http = () => s.t.http();

  beforeAll(async () => {
    s = await startSampleApp();
    reader = await makeUserDirect(s.t);
    home = (await makeCollection(s.t, s.admin, { name: 'Shapes home' })).id;
    // New collections copy the Root's grants, where All Users may write by default: here they may only read.
    await grant(s.t, s.admin, 1, home, 'none');
    await grant(s.t, s.admin, await makeGroup(s.t, s.admin, [reader.id]), home, 'read');
    const orders = s.table('ORDERS').id;
    const q = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Shapes question', collection_id: home });
    await makeModel(s.t, s.admin, tableQuery(s.db, orders), { name: 'Shapes model', collection_id: home });
    await dashboardWith(s.t, s.admin, [q.id], { name: 'Shapes dashboard', collection_id: home });
    await makeCollection(s.t, s.admin, { name: 'Shapes sub', parent_id: home });
    await http().post('/api/timeline').set(auth(s.admin)).send({ name: 'Shapes timeline', collection_id: home }).expect(200);
  });
  afterAll(() => s.t.close());

  it("GET /api/search: every result has Metabase's keys, `collection.type` null for a regular collection", async () => {
    const data: Json[] = (await http().get('/api/search?q=shapes').set(auth(s.admin)).expect(200)).body.data;
    expect(data.map((r) => r.model).sort()).toEqual(['card', 'collection', 'collection', 'dashboard', 'dataset']);
    for (const r of data) {
      expect({ model: r.model, missing: missing(r, SEARCH_KEYS) }).toEqual({ model: r.model, missing: [] });
      expect(r.collection).toEqual({ id: expect.anything(), name: expect.any(String), authority_level: null, type: null });
      expect(r.scores).toEqual([]);
    }
    const question = data.find((r) => r.model === 'card')!;
    expect(question).toMatchObject({
      can_write: true,
      dashboardcard_count: 1,
      last_editor_common_name: 'Ada Admin',
      creator_common_name: 'Ada Admin',
      location: null,
    });
    expect(question.last_edited_at).toEqual(expect.any(String));
    const sub = data.find((r) => r.name === 'Shapes sub')!;
    expect([sub.location, sub.effective_location, 'can_write' in sub]).toEqual([`/${home}/`, `/${home}/`, false]);
    const table = (await http().get('/api/search?q=orders&models=table').set(auth(s.admin)).expect(200)).body.data[0];
    expect(missing(table, SEARCH_KEYS)).toEqual([]);
    expect(table).toMatchObject({
      table_name: 'ORDERS',
      database_name: 'Sample Database',
      initial_sync_status: 'complete',
      dashboardcard_count: null,
    });
    const forReader: Json[] = (await http().get('/api/search?q=shapes&models=card').set(auth(reader.session)).expect(200)).body.data;
    expect(forReader.map((r) => r.can_write)).toEqual([false]);
  });

  it('GET /api/collection/:id/items: each model carries its keys, with can_write, can_restore and can_delete', async () => {
    const items: Json[] = (await http().get(`/api/collection/${home}/items`).set(auth(reader.session)).expect(200)).body.data;
    expect(items.map((i) => i.model).sort()).toEqual(['card', 'collection', 'dashboard', 'dataset', 'timeline']);
    for (const i of items) {
      expect({ model: i.model, missing: missing(i, ITEM_KEYS[i.model as string]) }).toEqual({ model: i.model, missing: [] });
      expect(i).not.toHaveProperty('archived_directly');
    }
    const question = items.find((i) => i.model === 'card')!;
    expect([question.can_write, question.can_restore, question.can_delete, question.location]).toEqual([false, false, false, null]);
    expect(items.find((i) => i.model === 'dataset')!.based_on_upload).toBeNull();
  });

  it('GET /api/collection/:id/items?archived=true: what was trashed on its own can be restored and deleted by a writer', async () => {
    const orders = s.table('ORDERS').id;
    const trashed = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'Shapes trashed', collection_id: home });
    await http().put(`/api/card/${trashed.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);
    const asAdmin: Json[] = (await http().get(`/api/collection/${home}/items?archived=true`).set(auth(s.admin)).expect(200)).body.data;
    expect(asAdmin.find((i) => i.id === trashed.id)).toMatchObject({
      can_write: true,
      can_restore: true,
      can_delete: true,
      archived: true,
    });
    const asReader: Json[] = (await http().get(`/api/collection/${home}/items?archived=true`).set(auth(reader.session)).expect(200)).body
      .data;
    expect(asReader.filter((i) => i.id === trashed.id).map((i) => [i.can_restore, i.can_delete])).toEqual([[false, false]]);
  });

  it('GET /api/card/:id and GET /api/dashboard/:id carry the keys Metabase hydrates, with its defaults', async () => {
    const orders = s.table('ORDERS').id;
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, orders), { collection_id: home });
    const asAdmin = (await http().get(`/api/card/${model.id}`).set(auth(s.admin)).expect(200)).body;
    expect(missing(asAdmin, CARD_KEYS)).toEqual([]);
    expect(asAdmin).toMatchObject({
      can_run_adhoc_query: true,
      can_manage_db: true,
      can_restore: false,
      can_delete: false,
      dashboard: null,
      persisted: false,
      based_on_upload: null,
      parameter_usage_count: 0,
    });
    const asReader = (await http().get(`/api/card/${model.id}`).set(auth(reader.session)).expect(200)).body;
    expect([asReader.can_write, asReader.can_manage_db, asReader.can_run_adhoc_query]).toEqual([false, false, true]);
    const graph = (await http().get('/api/permissions/graph').set(auth(s.admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(s.admin))
      .send({ revision: graph.revision, groups: { 1: { [s.db]: { data: 'no', native: 'none' } } } })
      .expect(200);
    expect((await http().get(`/api/card/${model.id}`).set(auth(reader.session)).expect(200)).body.can_run_adhoc_query).toBe(false);
    const d = await dashboardWith(s.t, s.admin, [model.id], { collection_id: home });
    const dash = (await http().get(`/api/dashboard/${d.id}`).set(auth(s.admin)).expect(200)).body;
    expect(missing(dash, DASHBOARD_KEYS)).toEqual([]);
    expect([dash.embedding_type, dash.last_used_param_values]).toEqual([null, {}]);
    expect(missing(dash.dashcards[0].card, ['archived_directly', 'based_on_upload', 'embedding_type'])).toEqual([]);
  });

  it('GET /api/pulse/form_input answers the channels, none configured, to any signed-in user', async () => {
    const schedules = ['hourly', 'daily', 'weekly', 'monthly'];
    expect((await http().get('/api/pulse/form_input').set(auth(reader.session)).expect(200)).body).toEqual({
      channels: {
        email: { type: 'email', name: 'Email', allows_recipients: true, recipients: ['user', 'email'], schedules, configured: false },
        slack: {
          type: 'slack',
          name: 'Slack',
          allows_recipients: false,
          schedules,
          fields: [{ name: 'channel', type: 'select', displayName: 'Post to', options: [], required: true }],
          configured: false,
        },
        http: { type: 'http', name: 'Webhook', allows_recipients: false, schedules, configured: false },
      },
    });
    expect401(await http().get('/api/pulse/form_input'));
  });

  it('takes the JSON body `null` as no body on the new body-less routes (one client sends it with every request)', async () => {
    const asNull = (req: ReturnType<ReturnType<typeof http>['get']>) =>
      req.set(auth(s.admin)).set('Content-Type', 'application/json').send('null');
    const card = (await http().get('/api/search?q=shapes&models=card').set(auth(s.admin)).expect(200)).body.data[0];
    expect((await asNull(http().get('/api/pulse/form_input'))).status).toBe(200);
    expect((await asNull(http().get(`/api/card/${card.id}/dashboards`))).body).toEqual([
      expect.objectContaining({ name: 'Shapes dashboard' }),
    ]);
    expect((await asNull(http().get(`/api/database/${s.db}/healthcheck`))).body).toEqual({ status: 'ok' });
  });
});
