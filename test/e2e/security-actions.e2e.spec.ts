import { DataSource } from 'typeorm';
import { WarehouseDatabase } from '../../src/schema/database.entity';
import { createDriver, validateDetails, type Engine } from '../../src/query-engine/execute/drivers';
import { grant, makeCollection, makeGroup, makeModel, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { expect403, expect404, expectMessage } from '../support/expect-wire';
import { auth, makeUserDirect, setupAdmin, type MadeUser } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(120_000);

type Json = Record<string, unknown>;

const PEOPLE = [
  'CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(100), email VARCHAR(100), password VARCHAR(100), source VARCHAR(20))',
  "INSERT INTO people (id, name, email, password, source) VALUES (1, 'Ann', 'ann@example.com', 'pw-ann', 'Google')," +
    " (2, 'Ben', 'ben@example.com', 'pw-ben', 'Twitter'), (9, 'Nia', 'nia@example.com', 'pw-nia', 'Google')",
];
const ROW_9 = [9, 'Nia', 'nia@example.com', 'pw-nia'];
const PRIMARY_KEY_ONLY = 'Values can only be fetched for actions that require a Primary Key.';
const terse = (res: { status: number; text: string }) =>
  expect({ status: res.status, text: res.text }).toEqual({ status: 400, text: 'An error occurred.' });

/**
 * Issue 30, findings 2 and 3, replayed over HTTP: a model of PEOPLE with implicit actions, PEOPLE.PASSWORD marked
 * sensitive after the model was saved, a model showing only ID and NAME, one showing only Google's people, a public
 * dashboard with their buttons and a non-admin viewer (All Users, reading the dashboard's collection).
 * Prefill answers the action's own parameters of a row the model shows, never a sensitive column; implicit actions
 * declare and write only the model's columns; any other parameter is a 400 before anything is written.
 */
describe.each(availableEngines(['sqlite', 'postgres', 'mysql']).map((e) => [e]))('action security on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  let bob: MadeUser;
  let dashboard: number;
  let dashUuid: string;
  /** Implicit actions by name, and the dashcards showing them. */
  const actions: Record<string, Json> = {};
  const cards: Record<string, number> = {};
  let narrowUpdateUuid: string;

  const http = () => t.http();
  const rows = async (sql: string) => {
    const driver = createDriver(engine as Engine, validateDetails(engine as Engine, wh.details, { dataDir: t.config.dataDir }), {
      maxPoolSize: 1,
    });
    try {
      return (await driver.query(sql)).rows;
    } finally {
      await driver.close();
    }
  };
  const row9 = () => rows('SELECT id, name, email, password FROM people WHERE id = 9');
  const publicPrefill = (card: string, parameters: Json) =>
    http()
      .get(`/api/public/dashboard/${dashUuid}/dashcard/${cards[card]}/execute`)
      .query({ parameters: JSON.stringify(parameters) });
  const prefill = (card: string, parameters: Json, key = bob.session) =>
    http()
      .get(`/api/dashboard/${dashboard}/dashcard/${cards[card]}/execute`)
      .query({ parameters: JSON.stringify(parameters) })
      .set(auth(key));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse(engine as Engine, t.config.dataDir, { statements: PEOPLE });
    const db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `People ${engine}`, details: wh.details })
        .expect(200)
    ).body.id as number;
    await waitForSync(t, admin, db);
    await t.app
      .get(DataSource)
      .getRepository(WarehouseDatabase)
      .update({ id: db }, { settings: { 'database-enable-actions': true } });
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
    };
    const people = meta.tables.find((x) => x.name.toLowerCase() === 'people')!;
    const field = (name: string) => people.fields.find((f) => f.name.toLowerCase() === name)!.id;
    const shared = await makeCollection(t, 'Shared');
    // The whole table, saved while PASSWORD was still an ordinary column (its result_metadata names it).
    const everyone = (await makeModel(t, admin, tableQuery(db, people.id), { collection_id: shared, name: 'People' })).id;
    await http()
      .put(`/api/field/${field('password')}`)
      .set(auth(admin))
      .send({ visibility_type: 'sensitive' })
      .expect(200);
    const narrow = (
      await makeModel(
        t,
        admin,
        tableQuery(db, people.id, {
          fields: [
            ['field', field('id'), null],
            ['field', field('name'), null],
          ],
        }),
        { collection_id: shared, name: 'People names' },
      )
    ).id;
    const google = (
      await makeModel(t, admin, tableQuery(db, people.id, { filter: ['=', ['field', field('source'), null], 'Google'] }), {
        collection_id: shared,
        name: 'Google people',
      })
    ).id;
    const implicit = async (name: string, model: number, kind: string, extra: Json = {}) => {
      actions[name] = (
        await http()
          .post('/api/action')
          .set(auth(admin))
          .send({ name, type: 'implicit', kind, model_id: model, ...extra })
          .expect(200)
      ).body;
    };
    await implicit('delete', everyone, 'row/delete');
    await implicit('update', everyone, 'row/update');
    await implicit('narrowUpdate', narrow, 'row/update');
    await implicit('narrowCreate', narrow, 'row/create');
    await implicit('googleUpdate', google, 'row/update');
    await implicit('hiddenEmail', everyone, 'row/update', { visualization_settings: { fields: { email: { id: 'email', hidden: true } } } });
    await http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: true }).expect(204);
    narrowUpdateUuid = (await http().post(`/api/action/${actions.narrowUpdate.id}/public_link`).set(auth(admin)).expect(200)).body.uuid;
    const names = Object.keys(actions);
    const d = await makeDashboard(t, admin, { collection_id: shared });
    const put = await http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(admin))
      .send({ dashcards: names.map((name, i) => newDashcard(-1 - i, null, { action_id: actions[name].id, row: i * 4 })) })
      .expect(200);
    for (const name of names) cards[name] = (put.body.dashcards as Json[]).find((c) => c.action_id === actions[name].id)!.id as number;
    dashboard = d.id;
    dashUuid = (await http().post(`/api/dashboard/${d.id}/public_link`).set(auth(admin)).expect(200)).body.uuid;
    bob = await makeUserDirect(t);
    await grant(t, await makeGroup(t, admin, bob.id), shared, 'read');
  });
  afterAll(async () => {
    await t?.close();
    await wh?.drop();
  });

  describe('finding 2: prefill', () => {
    it("answers an anonymous viewer only the action's own parameters, never the sensitive password", async () => {
      expect((await publicPrefill('delete', { id: 1 }).expect(200)).body).toEqual({ id: 1 });
      expect((await publicPrefill('update', { id: 1 }).expect(200)).body).toEqual({
        id: 1,
        name: 'Ann',
        email: 'ann@example.com',
        source: 'Google',
      });
      expect((await publicPrefill('narrowUpdate', { id: 1 }).expect(200)).body).toEqual({ id: 1, name: 'Ann' });
      expect((await publicPrefill('hiddenEmail', { id: 1 }).expect(200)).body).toEqual({ id: 1, name: 'Ann', source: 'Google' });
    });

    it('finds only rows the model shows, and refuses parameters the action does not declare', async () => {
      expect((await publicPrefill('googleUpdate', { id: 9 }).expect(200)).body).toMatchObject({ id: 9, name: 'Nia' });
      expect404(await publicPrefill('googleUpdate', { id: 2 }));
      expect404(await publicPrefill('update', { id: 404 }));
      terse(await publicPrefill('update', { id: 1, password: 'x' }));
      terse(await publicPrefill('delete', { id: { nested: 1 } }));
      terse(await publicPrefill('narrowCreate', { id: 1 }));
    });

    it("answers a signed-in non-admin the model's columns of rows the model shows, within their data permissions", async () => {
      expect((await prefill('delete', { id: 2 }).expect(200)).body).toEqual({ id: 2 });
      expect((await prefill('update', { id: 2 }).expect(200)).body).toEqual({
        id: 2,
        name: 'Ben',
        email: 'ben@example.com',
        source: 'Twitter',
      });
      // Admins too: the model's query never reads a sensitive column.
      expect((await prefill('update', { id: 2 }, admin).expect(200)).body).not.toHaveProperty('password');
      expect((await prefill('narrowUpdate', { id: 2 }).expect(200)).body).toEqual({ id: 2, name: 'Ben' });
      expect404(await prefill('googleUpdate', { id: 2 }));
      expectMessage(
        await prefill('narrowUpdate', { id: 2, email: 'x' }),
        'No destination parameter found for #{"email"}. Found: #{"id" "name"}',
      );
      expectMessage(await prefill('narrowCreate', { id: 2 }), PRIMARY_KEY_ONLY);
      const outsider = await makeUserDirect(t);
      expect403(await prefill('update', { id: 2 }, outsider.session));
    });
  });

  describe('finding 3: implicit parameters and unknown parameters', () => {
    const execute = (name: string, parameters: Json, key = admin) =>
      http().post(`/api/action/${actions[name].id}/execute`).set(auth(key)).send({ parameters });

    it("declares only the model's columns, never a sensitive one", async () => {
      expect((actions.narrowUpdate.parameters as Json[]).map((p) => p.id)).toEqual(['id', 'name']);
      expect((actions.narrowCreate.parameters as Json[]).map((p) => p.id)).toEqual(['id', 'name']);
      expect((actions.update.parameters as Json[]).map((p) => p.id)).toEqual(['id', 'name', 'email', 'source']);
      const shared = (await http().get(`/api/public/action/${narrowUpdateUuid}`).expect(200)).body;
      expect((shared.parameters as Json[]).map((p) => p.id)).toEqual(['id', 'name']);
      const onDashboard = (await http().get(`/api/public/dashboard/${dashUuid}`).expect(200)).body.dashcards as Json[];
      const button = onDashboard.find((c) => c.id === cards.narrowUpdate)!.action as Json;
      expect((button.parameters as Json[]).map((p) => p.id)).toEqual(['id', 'name']);
    });

    it('refuses a public action a column the model does not show, and changes nothing', async () => {
      terse(
        await http()
          .post(`/api/public/action/${narrowUpdateUuid}/execute`)
          .send({ parameters: { id: 9, email: 'x@evil', password: 'y' } }),
      );
      expect(await row9()).toEqual([ROW_9]);
      expect(
        (
          await http()
            .post(`/api/public/action/${narrowUpdateUuid}/execute`)
            .send({ parameters: { id: 9, name: 'Nia' } })
            .expect(200)
        ).body,
      ).toEqual({ 'rows-updated': [1] });
    });

    it('refuses it on /api/action/:id/execute with the destination message', async () => {
      expectMessage(
        await execute('narrowUpdate', { id: 9, email: 'x@evil', password: 'y' }),
        'No destination parameter found for #{"email" "password"}. Found: #{"id" "name"}',
      );
      expectMessage(
        await execute('update', { id: 9, password: 'y' }, bob.session),
        'No destination parameter found for #{"password"}. Found: #{"id" "name" "email" "source"}',
      );
      expectMessage(
        await execute('narrowCreate', { id: 50, name: 'Eve', password: 'y' }),
        'No destination parameter found for #{"password"}. Found: #{"id" "name"}',
      );
      expectMessage(
        await execute('hiddenEmail', { id: 9, email: 'x@evil' }),
        'No destination parameter found for #{"email"}. Found: #{"id" "name" "source"}',
      );
      expect(await row9()).toEqual([ROW_9]);
      expect(await rows('SELECT id FROM people WHERE id = 50')).toEqual([]);
    });

    it("refuses it through the dashboard's action buttons, public and signed in", async () => {
      terse(
        await http()
          .post(`/api/public/dashboard/${dashUuid}/dashcard/${cards.narrowUpdate}/execute`)
          .send({ parameters: {}, extra_parameters: { id: 9, email: 'x@evil' } }),
      );
      terse(
        await http()
          .post(`/api/public/dashboard/${dashUuid}/dashcard/${cards.update}/execute`)
          .send({ parameters: {}, extra_parameters: { id: 9, password: 'y' } }),
      );
      expectMessage(
        await http()
          .post(`/api/dashboard/${dashboard}/dashcard/${cards.narrowUpdate}/execute`)
          .set(auth(bob.session))
          .send({ extra_parameters: { id: 9, email: 'x@evil', password: 'y' } }),
        'No destination parameter found for #{"email" "password"}. Found: #{"id" "name"}',
      );
      expect(await row9()).toEqual([ROW_9]);
      const ok = await http()
        .post(`/api/dashboard/${dashboard}/dashcard/${cards.narrowUpdate}/execute`)
        .set(auth(bob.session))
        .send({ extra_parameters: { id: 9, name: 'Nia' } });
      expect([ok.status, ok.body]).toEqual([200, { 'rows-updated': [1] }]);
    });
  });
});
