import { grant, makeCollection, makeGroup } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, makeUserDirect, setupAdmin, type MadeUser } from '../support/factories';
import { expect400, expect403, expect404, expectMessage } from '../support/expect-wire';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';
import { actionWarehouse, queryActionBody, type ActionWarehouse } from './actions-helpers';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

const tag = (name: string) => ['variable', ['template-tag', name]];
const DASHCARD_MSG = 'value must be an array of dashcard maps, each with an integer `id`, `size_x`, `size_y`, `row` and `col`.';

/**
 * Action buttons on dashboards: dashcards carrying `action_id` through PUT /api/dashboard/:id, and
 * GET/POST /api/dashboard/:dashboard-id/dashcard/:dashcard-id/execute (prefill by primary key; run with the dashboard's
 * mapped values and the user's), on SQLite and (when reachable) Postgres warehouses.
 */
describe.each(availableEngines(['sqlite', 'postgres', 'mysql']).map((e) => [e]))('dashboard actions on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let w: ActionWarehouse;
  let shared: number;
  let reader: MadeUser;
  let outsider: MadeUser;
  let updater: Json;
  let inserter: Json;
  let dashboard: number;
  let updateCard: number;
  let insertCard: number;
  let plainCard: number;

  const http = () => t.http();
  const create = async (body: Json): Promise<Json> => (await http().post('/api/action').set(auth(admin)).send(body).expect(200)).body;
  const run = (dashcard: number, body: Json, key = admin, dash = dashboard) =>
    http().post(`/api/dashboard/${dash}/dashcard/${dashcard}/execute`).set(auth(key)).send(body);
  const prefill = (dashcard: number, parameters: string | undefined, key = admin) =>
    http()
      .get(`/api/dashboard/${dashboard}/dashcard/${dashcard}/execute`)
      .query(parameters === undefined ? {} : { parameters })
      .set(auth(key));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    shared = await makeCollection(t, 'Shared');
    w = await actionWarehouse(t, admin, engine as 'sqlite' | 'postgres' | 'mysql', shared);
    [reader, outsider] = [await makeUserDirect(t), await makeUserDirect(t)];
    await grant(t, await makeGroup(t, admin, reader.id), shared, 'read');
    updater = await create({ name: 'Update item', type: 'implicit', kind: 'row/update', model_id: w.model });
    inserter = await create(
      queryActionBody(w.model, w.db, 'INSERT INTO items (id, name, qty) VALUES ({{id}}, {{name}}, 1), ({{id}} + 1, {{name}}, {{qty}})', {
        id: 'number',
        name: 'text',
        qty: 'number',
      }),
    );
    const d = await makeDashboard(t, admin, {
      collection_id: shared,
      parameters: [{ id: 'item', slug: 'item', name: 'Item', type: 'id' }],
    });
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(admin))
      .send({
        dashcards: [
          newDashcard(-1, null, {
            action_id: updater.id,
            parameter_mappings: [{ parameter_id: 'item', target: tag('id') }],
            visualization_settings: { 'button.label': 'Update' },
          }),
          newDashcard(-2, null, { action_id: inserter.id, row: 4 }),
          newDashcard(-3, w.model, { row: 8 }),
        ],
      })
      .expect(200);
    dashboard = d.id;
    const cards = put.body.dashcards as Json[];
    updateCard = cards.find((c) => c.action_id === updater.id)!.id as number;
    insertCard = cards.find((c) => c.action_id === inserter.id)!.id as number;
    plainCard = cards.find((c) => c.card_id === w.model)!.id as number;
  });
  afterAll(async () => {
    await t?.close();
    await w?.wh.drop();
  });

  it('keeps a dashcard’s action_id through PUT and GET, and checks it', async () => {
    const got = (await http().get(`/api/dashboard/${dashboard}`).set(auth(admin)).expect(200)).body;
    expect((got.dashcards as Json[]).map((c) => [c.id, c.action_id])).toEqual(
      expect.arrayContaining([
        [updateCard, updater.id],
        [insertCard, inserter.id],
        [plainCard, null],
      ]),
    );
    // An action button shows its action; other dashcards have none.
    const byId = new Map((got.dashcards as Json[]).map((c) => [c.id, c]));
    expect(byId.get(updateCard)!.action).toMatchObject({
      id: updater.id,
      type: 'implicit',
      kind: 'row/update',
      model_id: w.model,
      name: 'Update item',
    });
    expect(byId.get(insertCard)!.action).toMatchObject({ id: inserter.id, type: 'query', database_id: w.db });
    expect(byId.get(plainCard)).not.toHaveProperty('action');
    const other = await makeDashboard(t, admin);
    expect404(
      await http()
        .put(`/api/dashboard/${other.id}`)
        .set(auth(admin))
        .send({ dashcards: [newDashcard(-1, null, { action_id: 999_999 })] }),
    );
    expect400(
      await http()
        .put(`/api/dashboard/${other.id}`)
        .set(auth(admin))
        .send({ dashcards: [newDashcard(-1, null, { action_id: 'x' })] }),
      'dashcards',
      DASHCARD_MSG,
    );
    expect400(
      await http()
        .put(`/api/dashboard/${other.id}`)
        .set(auth(admin))
        .send({ dashcards: [newDashcard(-1, null, { action_id: 0 })] }),
      'dashcards',
      DASHCARD_MSG,
    );
  });

  it('prefills an update form with the row’s current values, by primary key', async () => {
    expect((await prefill(updateCard, JSON.stringify({ id: 1 })).expect(200)).body).toEqual({ id: 1, name: 'apple', qty: 5 });
    expect404(await prefill(updateCard, JSON.stringify({ id: 404 })));
    expectMessage(await prefill(updateCard, JSON.stringify({})), 'Missing primary key parameter: "id"');
    // A query action has nothing to prefill.
    expect((await prefill(insertCard, '{}').expect(200)).body).toEqual({});
    expect400(await prefill(updateCard, undefined), 'parameters', 'value must be a valid JSON string.');
    expect400(await prefill(updateCard, '{nope'), 'parameters', 'value must be a valid JSON string.');
    expect400(await prefill(updateCard, '[1]'), 'parameters', 'value must be a valid JSON string.');
    expect404(await prefill(plainCard, '{"id": 1}'));
    expect400(
      await http().get(`/api/dashboard/0/dashcard/${updateCard}/execute?parameters={}`).set(auth(admin)),
      'dashboard-id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().get(`/api/dashboard/${dashboard}/dashcard/x/execute?parameters={}`).set(auth(admin)),
      'dashcard-id',
      'value must be an integer greater than zero.',
    );
  });

  it("runs the dashcard's action with the dashboard's mapped values and the user's", async () => {
    expect((await run(updateCard, { parameters: { item: 2 }, extra_parameters: { qty: 11 } }).expect(200)).body).toEqual({
      'rows-updated': [1],
    });
    expect(await w.rows('SELECT qty FROM items WHERE id = 2')).toEqual([[11]]);
    // The user's values alone.
    expect((await run(updateCard, { extra_parameters: { id: 2, name: 'pear!' } }).expect(200)).body).toEqual({ 'rows-updated': [1] });
    expect(await w.rows('SELECT name FROM items WHERE id = 2')).toEqual([['pear!']]);
    expectMessage(await run(updateCard, { parameters: { nope: 1 } }), 'No destination parameter found for #{"nope"}. Found: #{"item"}');
    expect400(await run(updateCard, { parameters: 'x' }), 'parameters', 'value must be a map.');
    expect400(await run(updateCard, { extra_parameters: [1] }), 'extra_parameters', 'value must be a map.');
    expect404(await run(plainCard, {}));
    expect404(await run(updateCard, {}, admin, (await makeDashboard(t, admin)).id));
  });

  it('changes nothing when the write fails part way', async () => {
    const before = await w.rows('SELECT id, name, qty FROM items ORDER BY id');
    // Two rows; the second breaks the CHECK on qty.
    const res = await run(insertCard, { extra_parameters: { 'p-id': 40, 'p-name': 'twin', 'p-qty': -5 } });
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe('string');
    expect(await w.rows('SELECT id, name, qty FROM items ORDER BY id')).toEqual(before);
    expect((await run(insertCard, { extra_parameters: { 'p-id': 40, 'p-name': 'twin', 'p-qty': 2 } }).expect(200)).body).toEqual({
      'rows-affected': 2,
    });
  });

  it('needs read access to the dashboard and data access to the database', async () => {
    expect((await prefill(updateCard, '{"id": 1}', reader.session).expect(200)).body.name).toBe('apple');
    expect((await run(updateCard, { parameters: { item: 1 }, extra_parameters: { qty: 6 } }, reader.session).expect(200)).body).toEqual({
      'rows-updated': [1],
    });
    expect403(await prefill(updateCard, '{"id": 1}', outsider.session));
    expect403(await run(updateCard, { parameters: { item: 1 } }, outsider.session));
    expect((await http().post(`/api/dashboard/${dashboard}/dashcard/${updateCard}/execute`).send({})).status).toBe(401);
    const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: graph.revision, groups: { 1: { [w.db]: { data: 'no', native: 'none' } } } })
      .expect(200);
    expect403(await run(updateCard, { parameters: { item: 1 }, extra_parameters: { qty: 7 } }, reader.session));
    expect(await w.rows('SELECT qty FROM items WHERE id = 1')).toEqual([[6]]);
  });

  it('refuses a disabled database, an archived action, and drops the dashcard with a deleted action', async () => {
    await w.enableActions(false);
    try {
      expectMessage(await run(updateCard, { parameters: { item: 1 }, extra_parameters: { qty: 1 } }), 'Actions are not enabled.');
    } finally {
      await w.enableActions(true);
    }
    await http().put(`/api/action/${updater.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    expect404(await run(updateCard, { parameters: { item: 1 } }));
    await http().put(`/api/action/${updater.id}`).set(auth(admin)).send({ archived: false }).expect(200);
    await http().delete(`/api/action/${inserter.id}`).set(auth(admin)).expect(204);
    expect404(await run(insertCard, {}));
    const got = (await http().get(`/api/dashboard/${dashboard}`).set(auth(admin)).expect(200)).body;
    expect((got.dashcards as Json[]).map((c) => c.id)).not.toContain(insertCard);
  });
});
