import { randomUUID } from 'node:crypto';
import { makeCollection } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, setupAdmin } from '../support/factories';
import { expect404 } from '../support/expect-wire';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';
import { actionWarehouse, queryActionBody, type ActionWarehouse } from './actions-helpers';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

const failed = (res: { status: number; text: string }) =>
  expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'An error occurred.' });

/**
 * Public actions without a login: GET and POST /api/public/action/:uuid(/execute), and the action buttons of a public
 * dashboard (GET/POST /api/public/dashboard/:uuid/dashcard/:dashcard-id/execute), with public sharing on, writing to
 * a real table; the public surface's terse failures.
 */
describe.each(availableEngines(['sqlite', 'postgres', 'mysql']).map((e) => [e]))('public actions on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let w: ActionWarehouse;
  let insert: Json;
  let updater: Json;
  let actionUuid: string;
  let dashUuid: string;
  let updateCard: number;
  let plainCard: number;

  const http = () => t.http();
  const sharing = (on: boolean) => http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: on }).expect(204);
  const create = async (body: Json): Promise<Json> => (await http().post('/api/action').set(auth(admin)).send(body).expect(200)).body;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    w = await actionWarehouse(t, admin, engine as 'sqlite' | 'postgres' | 'mysql', await makeCollection(t, 'Shared'));
    await sharing(true);
    insert = await create(
      queryActionBody(
        w.model,
        w.db,
        'INSERT INTO items (id, name, qty) VALUES ({{id}}, {{name}}, {{qty}})',
        { id: 'number', name: 'text', qty: 'number' },
        { name: 'Add item' },
      ),
    );
    actionUuid = (await http().post(`/api/action/${insert.id}/public_link`).set(auth(admin)).expect(200)).body.uuid;
    updater = await create({ name: 'Update item', type: 'implicit', kind: 'row/update', model_id: w.model });
    const d = await makeDashboard(t, admin, { parameters: [{ id: 'item', slug: 'item', name: 'Item', type: 'id' }] });
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(admin))
      .send({
        dashcards: [
          newDashcard(-1, null, {
            action_id: updater.id,
            parameter_mappings: [{ parameter_id: 'item', target: ['variable', ['template-tag', 'id']] }],
          }),
          newDashcard(-2, w.model, { row: 4 }),
        ],
      })
      .expect(200);
    updateCard = (put.body.dashcards as Json[]).find((c) => c.action_id === updater.id)!.id as number;
    plainCard = (put.body.dashcards as Json[]).find((c) => c.card_id === w.model)!.id as number;
    dashUuid = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(admin)).expect(200)).body.uuid;
  });
  afterAll(async () => {
    await t?.close();
    await w?.wh.drop();
  });

  it('shows a public action without its SQL, owner or collection', async () => {
    const got = (await http().get(`/api/public/action/${actionUuid}`).expect(200)).body;
    expect(got).toEqual({
      id: insert.id,
      name: 'Add item',
      type: 'query',
      database_id: w.db,
      parameters: insert.parameters,
      visualization_settings: {},
    });
    expect404(await http().get(`/api/public/action/${randomUUID()}`));
    expect((await http().get('/api/public/action/not-a-uuid')).status).toBe(400);
  });

  it("shows a public dashboard's action buttons with their action, without owner or SQL", async () => {
    const dash = (await http().get(`/api/public/dashboard/${dashUuid}`).expect(200)).body;
    const button = (dash.dashcards as Json[]).find((c) => c.id === updateCard)!;
    expect(button).toMatchObject({
      action_id: updater.id,
      action: { id: updater.id, name: 'Update item', type: 'implicit', database_id: w.db, parameters: updater.parameters },
    });
    expect(Object.keys(button.action as Json).sort()).toEqual([
      'database_id',
      'id',
      'name',
      'parameters',
      'type',
      'visualization_settings',
    ]);
    expect((dash.dashcards as Json[]).find((c) => c.id === plainCard)).not.toHaveProperty('action');
  });

  it('runs a public action without a login; failures are terse and change nothing', async () => {
    expect(
      (
        await http()
          .post(`/api/public/action/${actionUuid}/execute`)
          .send({ parameters: { 'p-id': 50, 'p-name': 'fig', 'p-qty': 2 } })
          .expect(200)
      ).body,
    ).toEqual({ 'rows-affected': 1 });
    expect(await w.rows('SELECT name, qty FROM items WHERE id = 50')).toEqual([['fig', 2]]);
    const before = await w.rows('SELECT id, name, qty FROM items ORDER BY id');
    failed(
      await http()
        .post(`/api/public/action/${actionUuid}/execute`)
        .send({ parameters: { 'p-id': 51, 'p-name': 'bad', 'p-qty': -1 } }),
    );
    failed(
      await http()
        .post(`/api/public/action/${actionUuid}/execute`)
        .send({ parameters: { 'p-id': 50, 'p-name': 'dup', 'p-qty': 1 } }),
    );
    failed(
      await http()
        .post(`/api/public/action/${actionUuid}/execute`)
        .send({ parameters: { nope: 1 } }),
    );
    failed(await http().post(`/api/public/action/${actionUuid}/execute`).send({ parameters: 'x' }));
    expect(await w.rows('SELECT id, name, qty FROM items ORDER BY id')).toEqual(before);
    expect404(await http().post(`/api/public/action/${randomUUID()}/execute`).send({ parameters: {} }));
  });

  it("runs and prefills a public dashboard's action buttons", async () => {
    expect(
      (await http().get(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`).query({ parameters: '{"id": 1}' }).expect(200))
        .body,
    ).toEqual({ id: 1, name: 'apple', qty: 5 });
    expect(
      (
        await http()
          .post(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`)
          .send({ parameters: { item: 1 }, extra_parameters: { qty: 12 } })
          .expect(200)
      ).body,
    ).toEqual({ 'rows-updated': [1] });
    expect(await w.rows('SELECT qty FROM items WHERE id = 1')).toEqual([[12]]);
    failed(await http().get(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`));
    failed(await http().get(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`).query({ parameters: 'nope' }));
    failed(
      await http()
        .post(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`)
        .send({ parameters: { other: 1 } }),
    );
    failed(await http().post(`/api/public/dashboard/${dashUuid}/dashcard/0/execute`).send({}));
    expect404(await http().post(`/api/public/dashboard/${dashUuid}/dashcard/${plainCard}/execute`).send({}));
    expect404(await http().post(`/api/public/dashboard/${randomUUID()}/dashcard/${updateCard}/execute`).send({}));
  });

  it('answers nothing once the link is gone, the action archived, or public sharing off', async () => {
    await http().put(`/api/action/${insert.id}`).set(auth(admin)).send({ archived: true }).expect(200);
    expect404(await http().get(`/api/public/action/${actionUuid}`));
    await http().put(`/api/action/${insert.id}`).set(auth(admin)).send({ archived: false }).expect(200);
    await sharing(false);
    try {
      failed(await http().get(`/api/public/action/${actionUuid}`));
      failed(await http().post(`/api/public/action/${actionUuid}/execute`).send({ parameters: {} }));
      failed(await http().post(`/api/public/dashboard/${dashUuid}/dashcard/${updateCard}/execute`).send({}));
    } finally {
      await sharing(true);
    }
    await w.enableActions(false);
    try {
      failed(
        await http()
          .post(`/api/public/action/${actionUuid}/execute`)
          .send({ parameters: { 'p-id': 60, 'p-name': 'x', 'p-qty': 1 } }),
      );
    } finally {
      await w.enableActions(true);
    }
    await http().delete(`/api/action/${insert.id}/public_link`).set(auth(admin)).expect(204);
    expect404(await http().get(`/api/public/action/${actionUuid}`));
  });
});
