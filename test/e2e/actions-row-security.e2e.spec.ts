import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { grant, makeCollection, makeGroup } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, makeUserDirect, setupAdmin, type MadeUser } from '../support/factories';
import { expect403, expect404 } from '../support/expect-wire';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';
import { actionWarehouse, queryActionBody, type ActionWarehouse } from './actions-helpers';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

/**
 * Actions for a user under a filter policy on the table they write (issue 37: "actions' prefill and implicit writes,
 * only the user's rows"): `items` rows whose `name` is the user's `fruit` attribute. Implicit actions update, delete
 * and prefill those rows only, and create only such rows; a query action's SQL could touch any row and is refused.
 */
describe.each(availableEngines(['sqlite', 'postgres', 'mysql']).map((e) => [e]))('actions under a row policy on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let w: ActionWarehouse;
  let picker: MadeUser;
  const actions: Record<string, Json> = {};
  let dashboard: number;
  let updateCard: number;

  const http = () => t.http();
  const create = async (body: Json): Promise<Json> => (await http().post('/api/action').set(auth(admin)).send(body).expect(200)).body;
  const execute = (kind: string, parameters: Json) =>
    http().post(`/api/action/${actions[kind].id}/execute`).set(auth(picker.session)).send({ parameters });
  const items = () => w.rows('SELECT id, name, qty FROM items ORDER BY id');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    const shared = await makeCollection(t, 'Shared');
    w = await actionWarehouse(t, admin, engine as 'sqlite' | 'postgres' | 'mysql', shared);
    picker = await makeUserDirect(t);
    const group = await makeGroup(t, admin, picker.id);
    await grant(t, group, shared, 'read');
    const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({
        revision: graph.revision,
        groups: {
          [ALL_USERS_GROUP_ID]: { [w.db]: { data: 'no', native: 'none' } },
          [group]: { [w.db]: { data: 'unrestricted', native: 'none' } },
        },
      })
      .expect(200);
    await http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({ group_id: group, table_id: w.table, attribute_remappings: { fruit: 'name' } })
      .expect(200);
    await http()
      .put(`/api/user/${picker.id}`)
      .set(auth(admin))
      .send({ login_attributes: { fruit: 'apple' } })
      .expect(200);
    for (const kind of ['row/create', 'row/update', 'row/delete'])
      actions[kind] = await create({ name: kind, type: 'implicit', kind, model_id: w.model });
    actions.query = await create(queryActionBody(w.model, w.db, 'UPDATE items SET qty = 0 WHERE id = {{id}}', { id: 'number' }));
    dashboard = (await makeDashboard(t, admin, { collection_id: shared })).id;
    const put = await http()
      .put(`/api/dashboard/${dashboard}`)
      .set(auth(admin))
      .send({ dashcards: [newDashcard(-1, null, { action_id: actions['row/update'].id })] })
      .expect(200);
    updateCard = (put.body.dashcards as Json[])[0].id as number;
  });
  afterAll(async () => {
    await t?.close();
    await w?.wh.drop();
  });

  it("updates the user's own row, and answers another's as a row that does not exist", async () => {
    expect((await execute('row/update', { id: 1, qty: 7 }).expect(200)).body).toEqual({ 'rows-updated': [1] });
    const pear = await execute('row/update', { id: 2, qty: 0 });
    expect([pear.status, pear.body]).toEqual([404, { message: "Sorry, the row you're trying to update doesn't exist" }]);
    const moved = await execute('row/update', { id: 1, name: 'pear' });
    expect([moved.status, moved.body.message]).toEqual([403, expect.stringMatching(/set name to one of your values/)]);
    expect(await items()).toEqual([
      [1, 'apple', 7],
      [2, 'pear', 3],
    ]);
  });

  it('prefills a form from their own row only', async () => {
    const prefill = (id: number) =>
      http()
        .get(`/api/dashboard/${dashboard}/dashcard/${updateCard}/execute`)
        .query({ parameters: JSON.stringify({ id }) })
        .set(auth(picker.session));
    expect((await prefill(1).expect(200)).body).toEqual({ id: 1, name: 'apple', qty: 7 });
    expect404(await prefill(2));
  });

  it('creates only rows they would see, and deletes only their own', async () => {
    const foreign = await execute('row/create', { id: 40, name: 'plum', qty: 1 });
    expect([foreign.status, foreign.body.message]).toEqual([
      403,
      expect.stringMatching(/only create rows your row security policy shows you/),
    ]);
    expect((await execute('row/create', { id: 41, name: 'apple', qty: 2 }).expect(200)).body).toEqual({
      'created-row': { id: 41, name: 'apple', qty: 2 },
    });
    const pear = await execute('row/delete', { id: 2 });
    expect([pear.status, pear.body]).toEqual([404, { message: "Sorry, the row you're trying to delete doesn't exist" }]);
    expect((await execute('row/delete', { id: 41 }).expect(200)).body).toEqual({ 'rows-deleted': [1] });
    expect(await items()).toEqual([
      [1, 'apple', 7],
      [2, 'pear', 3],
    ]);
  });

  it("refuses a query action (its SQL could touch any row) and a user without the policy's attribute", async () => {
    expect403(await execute('query', { 'p-id': 2 }));
    await http().put(`/api/user/${picker.id}`).set(auth(admin)).send({ login_attributes: {} }).expect(200);
    try {
      const res = await execute('row/update', { id: 1, qty: 1 });
      expect([res.status, res.body.message]).toEqual([403, 'Query requires user attribute `fruit`']);
    } finally {
      await http()
        .put(`/api/user/${picker.id}`)
        .set(auth(admin))
        .send({ login_attributes: { fruit: 'apple' } })
        .expect(200);
    }
    expect(await items()).toEqual([
      [1, 'apple', 7],
      [2, 'pear', 3],
    ]);
  });
});
