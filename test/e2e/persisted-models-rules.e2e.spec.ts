import { DataSource } from 'typeorm';
import { PersistenceScheduler } from '../../src/modules/persistence/persistence.scheduler';
import { PersistenceService } from '../../src/modules/persistence/persistence.service';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { grant, makeCard, makeCollection, makeGroup, makeModel } from '../support/card-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUser, setupAdmin, type MadeUser } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines, serverAdmin } from '../support/warehouses';

jest.setTimeout(240_000);

/**
 * The rules around persisted models: the switches, validation, SQLite refused, who may persist and read, the
 * warehouse user's missing right, the build lease, the schedule, and a model whose query changed (stale).
 * On Postgres when it is reachable, else on DuckDB.
 */
describe('persisted models: switches, validation, permissions, lease, schedule', () => {
  let t: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  let db: number;
  let tableId: number;
  let amountId: number;
  let coll: number;
  let closed: number;
  let reader: MadeUser;
  let writer: MadeUser;
  const engine = availableEngines(['postgres', 'duckdb'])[0];
  const warehouses: E2eWarehouse[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse(engine, t.config.dataDir, {
      statements: ['CREATE TABLE items (id INTEGER PRIMARY KEY, amount INTEGER)', 'INSERT INTO items VALUES (1, 10), (2, 20), (3, 30)'],
    });
    warehouses.push(wh);
    db = (await t.http().post('/api/database').set(auth(admin)).send({ engine, name: 'Items', details: wh.details }).expect(200)).body.id;
    await waitForSync(t, admin, db);
    const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const table = meta.tables.find((x: { name: string }) => x.name.toLowerCase() === 'items');
    tableId = table.id;
    amountId = table.fields.find((f: { name: string }) => f.name.toLowerCase() === 'amount').id;
    coll = await makeCollection(t);
    closed = await makeCollection(t);
    reader = await makeUser(t, admin);
    writer = await makeUser(t, admin);
    await grant(t, ALL_USERS_GROUP_ID, coll, 'read');
    await grant(t, await makeGroup(t, admin, writer.id), coll, 'write');
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  const model = (extra: Record<string, unknown> = {}) =>
    makeModel(t, admin, { database: db, type: 'query', query: { 'source-table': tableId } }, { collection_id: coll, ...extra });
  const sumOf = (session: string, cardId: number) => {
    const q = {
      database: db,
      type: 'query',
      query: { 'source-table': `card__${cardId}`, aggregation: [['sum', ['field', 'amount', { 'base-type': 'type/Integer' }]]] },
    };
    return t.http().post('/api/dataset').set(auth(session)).send(q);
  };

  it('is refused while the instance switch is off, then each database is switched on by an admin', async () => {
    const m = await model();
    expect((await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(400)).body.message).toBe(
      'Persisting models is not enabled.',
    );
    expect((await t.http().post(`/api/database/${db}/persist`).set(auth(admin)).expect(400)).body.message).toBe(
      'Persisting models is not enabled.',
    );
    expect((await t.http().get('/api/setting/persisted-models-enabled').set(auth(admin)).expect(200)).body).toBe(false);
    await t.http().post('/api/persist/enable').set(auth(reader.session)).send({ state: true }).expect(403);
    await t.http().post('/api/persist/enable').set(auth(admin)).send({ state: true }).expect(204);
    await t.http().post(`/api/database/${db}/persist`).set(auth(reader.session)).expect(403);
    await t.http().post(`/api/database/${db}/unpersist`).set(auth(writer.session)).expect(403);
    await t.http().post(`/api/database/${db}/persist`).set(auth(admin)).expect(204);
    await t.http().post('/api/database/999999/persist').set(auth(admin)).expect(404);
  });

  it('validates its input', async () => {
    const bad = await t.http().post('/api/card/abc/persist').set(auth(admin)).expect(400);
    expect(Object.keys(bad.body.errors)).toEqual(['card-id']);
    expect(Object.keys((await t.http().post('/api/persist/enable').set(auth(admin)).send({}).expect(400)).body.errors)).toEqual(['state']);
    await t.http().post('/api/persist/enable').set(auth(admin)).send({ state: 'yes' }).expect(400);
    const cron = await t.http().post('/api/persist/set-refresh-schedule').set(auth(admin)).send({ cron: '0 0 0/6 1 * ? *' }).expect(400);
    expect(cron.body.errors.cron).toMatch(/day-of-month/);
    await t.http().post('/api/persist/set-refresh-schedule').set(auth(admin)).send({ cron: 'every hour' }).expect(400);
    await t.http().put('/api/setting/persisted-model-refresh-cron-schedule').set(auth(admin)).send({ value: '0 0 25 * * ? *' }).expect(400);
    await t.http().post('/api/persist/set-refresh-schedule').set(auth(admin)).send({ cron: '0 30 0/3 * * ? *' }).expect(204);
    expect((await t.http().get('/api/setting/persisted-model-refresh-cron-schedule').set(auth(admin)).expect(200)).body).toBe(
      '0 30 0/3 * * ? *',
    );
    await t.http().get('/api/persist?limit=0').set(auth(admin)).expect(400);
    await t.http().get('/api/persist?offset=-1').set(auth(admin)).expect(400);
    await t.http().get('/api/persist/abc').set(auth(admin)).expect(400);
    await t.http().get('/api/persist/999999').set(auth(admin)).expect(404);
    await t.http().post('/api/card/999999/persist').set(auth(admin)).expect(404);
    const question = await makeCard(t, admin, { database: db, type: 'query', query: { 'source-table': tableId } });
    expect((await t.http().post(`/api/card/${question.id}/persist`).set(auth(admin)).expect(400)).body.message).toBe('Card is not a model');
    const m = await model();
    await t.http().get(`/api/persist/card/${m.id}`).set(auth(admin)).expect(404);
    expect((await t.http().post(`/api/card/${m.id}/refresh`).set(auth(admin)).expect(400)).body.message).toBe(
      'This model is not persisted.',
    );
  });

  it('says SQLite databases cannot hold persisted models', async () => {
    const lite = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)'] });
    warehouses.push(lite);
    const liteDb = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Lite', details: lite.details }).expect(200)
    ).body.id;
    await waitForSync(t, admin, liteDb);
    const res = await t.http().post(`/api/database/${liteDb}/persist`).set(auth(admin)).expect(400);
    expect(res.body.message).toBe('Persisting models is not supported on SQLite databases.');
    const m = await makeModel(t, admin, { database: liteDb, type: 'native', native: { query: 'SELECT id FROM t' } });
    expect((await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(400)).body.message).toBe(
      'Persisting models is not supported on SQLite databases.',
    );
  });

  it("needs write access to the model's collection; reading through the table keeps the model's data permissions", async () => {
    const m = await model();
    for (const action of ['persist', 'refresh', 'unpersist'])
      await t.http().post(`/api/card/${m.id}/${action}`).set(auth(reader.session)).expect(403);
    await t.http().post(`/api/card/${m.id}/persist`).set(auth(writer.session)).expect(204);
    expect((await t.http().get(`/api/persist/card/${m.id}`).set(auth(reader.session)).expect(200)).body.state).toBe('persisted');
    await t.http().get('/api/persist').set(auth(writer.session)).expect(403);
    const info = (await t.http().get(`/api/persist/card/${m.id}`).set(auth(admin)).expect(200)).body;
    await t.http().get(`/api/persist/${info.id}`).set(auth(reader.session)).expect(200);
    const hidden = await model({ collection_id: closed });
    await t.http().post(`/api/card/${hidden.id}/persist`).set(auth(admin)).expect(204);
    await t.http().get(`/api/persist/card/${hidden.id}`).set(auth(reader.session)).expect(403);
    await t.http().post(`/api/card/${hidden.id}/persist`).set(auth(writer.session)).expect(403);
    await t.http().post(`/api/card/${hidden.id}/refresh`).set(auth(writer.session)).expect(403);

    const read = (await sumOf(reader.session, m.id).expect(202)).body;
    expect({ status: read.status, sum: Number(read.data.rows[0][0]) }).toEqual({ status: 'completed', sum: 60 });
    expect(read.data.native_form.query).toContain(info.schema_name);
    // No data access to the database: the persisted table is refused as the model's query is.
    expect((await sumOf(reader.session, hidden.id)).status).toBe(403);
    const graph = (await t.http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await t
      .http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [db]: { data: 'no', native: 'none' } } } })
      .expect(200);
    await sumOf(reader.session, m.id).expect(403);
    const again = (await t.http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await t
      .http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: again.revision, groups: { [ALL_USERS_GROUP_ID]: { [db]: { data: 'unrestricted', native: 'write' } } } })
      .expect(200);
    await sumOf(reader.session, m.id).expect(202);
  });

  it('one build at a time per model: a lease held elsewhere refuses, an expired one is taken over', async () => {
    const m = await model();
    await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(204);
    const ds = t.app.get(DataSource);
    const pg = ds.options.type === 'postgres';
    const set = (until: number) =>
      ds.query(
        `UPDATE persisted_info SET lease_holder = 'another-instance', lease_until = ${pg ? '$1' : '?'} WHERE card_id = ${pg ? '$2' : '?'}`,
        [until, m.id],
      );
    await set(Date.now() + 60_000);
    expect((await t.http().post(`/api/card/${m.id}/refresh`).set(auth(admin)).expect(409)).body.message).toMatch(/another request/);
    const lease = `SELECT lease_holder, refresh_begin FROM persisted_info WHERE card_id = ${pg ? '$1' : '?'}`;
    const [held] = await ds.query(lease, [m.id]);
    // The scheduler (at a time when every model is due) leaves it to the holder too.
    await t.app.get(PersistenceScheduler).tick(new Date(Date.now() + 7 * 3600_000));
    expect(await ds.query(lease, [m.id])).toEqual([held]);
    expect(held.lease_holder).toBe('another-instance');
    // The holder crashed: its lease runs out.
    await set(Date.now() - 1);
    await t.http().post(`/api/card/${m.id}/refresh`).set(auth(admin)).expect(204);
    const [row] = await ds.query(lease, [m.id]);
    expect(row.lease_holder).toBeNull();
  });

  it('rebuilds on schedule, and a model whose query changed is read from its own query until rebuilt', async () => {
    const m = await model();
    await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(204);
    const scheduler = t.app.get(PersistenceScheduler);
    // Other models of this file are due too: only this one's state is looked at.
    await scheduler.tick(new Date(Date.now() + 48 * 3600_000));
    const before = (await t.http().get(`/api/persist/card/${m.id}`).set(auth(admin)).expect(200)).body;
    expect(await scheduler.tick()).toBe(0);

    await wh.exec(['UPDATE items SET amount = amount + 1 WHERE id = 1']);
    expect(Number((await sumOf(admin, m.id).expect(202)).body.data.rows[0][0])).toBe(60);
    // Two scheduled times later (every 3 hours at :30): due.
    expect(await scheduler.tick(new Date(Date.now() + 7 * 3600_000))).toBeGreaterThanOrEqual(1);
    const after = (await t.http().get(`/api/persist/card/${m.id}`).set(auth(admin)).expect(200)).body;
    expect(new Date(after.refresh_begin).getTime()).toBeGreaterThan(new Date(before.refresh_begin).getTime());
    expect(Number((await sumOf(admin, m.id).expect(202)).body.data.rows[0][0])).toBe(61);

    // The model's query changes: the stale table is not read (its query hash differs) and is rebuilt in the background;
    // should that rebuild fail, the scheduler's next pass rebuilds it.
    const persistence = t.app.get(PersistenceService);
    const cached = async () => {
      const res = (await sumOf(admin, m.id).expect(202)).body;
      return { sum: Number(res.data.rows[0][0]), cached: res.data.native_form.query.includes('analytics_cache_') };
    };
    const filtered = (min: number) => ({
      database: db,
      type: 'query',
      query: { 'source-table': tableId, filter: ['>', ['field', amountId, null], min] },
    });
    const queryChanged = jest.spyOn(persistence, 'queryChanged').mockImplementationOnce(() => undefined);
    await t
      .http()
      .put(`/api/card/${m.id}`)
      .set(auth(admin))
      .send({ dataset_query: filtered(15) })
      .expect(200);
    expect(queryChanged).toHaveBeenCalledWith(m.id);
    expect(await cached()).toEqual({ sum: 50, cached: false });
    expect(await scheduler.tick()).toBeGreaterThanOrEqual(1);
    expect(await cached()).toEqual({ sum: 50, cached: true });
    await t
      .http()
      .put(`/api/card/${m.id}`)
      .set(auth(admin))
      .send({ dataset_query: filtered(25) })
      .expect(200);
    await persistence.pending;
    expect(await cached()).toEqual({ sum: 30, cached: true });
    queryChanged.mockRestore();
  });

  (engine === 'postgres' ? it : it.skip)('names the schema and the right when the warehouse user may not create it', async () => {
    const limited = await e2eWarehouse('postgres', t.config.dataDir, {
      password: 'Secret-pw-1',
      statements: ['CREATE TABLE items (id INTEGER PRIMARY KEY, amount INTEGER)'],
    });
    warehouses.push(limited);
    await serverAdmin('postgres')(`REVOKE CREATE ON DATABASE ${limited.details.dbname as string} FROM ${limited.details.user as string}`);
    const limitedDb = (
      await t
        .http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'postgres', name: 'Limited', details: limited.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, limitedDb);
    await t.http().post(`/api/database/${limitedDb}/persist`).set(auth(admin)).expect(204);
    const meta = (await t.http().get(`/api/database/${limitedDb}/metadata`).set(auth(admin)).expect(200)).body;
    const m = await makeModel(t, admin, { database: limitedDb, type: 'query', query: { 'source-table': meta.tables[0].id } });
    const res = await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(400);
    expect(res.body.message).toMatch(new RegExp(`may not create the schema "analytics_cache_[0-9a-f]{8}_${limitedDb}".*CREATE privilege`));
    expect((await t.http().get(`/api/persist/card/${m.id}`).set(auth(admin)).expect(200)).body).toMatchObject({
      state: 'error',
      active: false,
    });
    // Nothing persisted: the model's own query answers.
    const q = { database: limitedDb, type: 'query', query: { 'source-table': `card__${m.id}`, aggregation: [['count']] } };
    expect((await t.http().post('/api/dataset').set(auth(admin)).send(q).expect(202)).body.status).toBe('completed');
  });

  (availableEngines(['mysql']).length ? it : it.skip)(
    'MariaDB: names the schema (a database there) and the right when the user may not create it',
    async () => {
      const limited = await e2eWarehouse('mysql', t.config.dataDir, {
        password: 'Secret-pw-1',
        statements: ['CREATE TABLE items (id INTEGER PRIMARY KEY, amount INTEGER)'],
      });
      warehouses.push(limited);
      const limitedDb = (
        await t
          .http()
          .post('/api/database')
          .set(auth(admin))
          .send({ engine: 'mysql', name: 'Limited MariaDB', details: limited.details })
          .expect(200)
      ).body.id;
      await waitForSync(t, admin, limitedDb);
      await t.http().post(`/api/database/${limitedDb}/persist`).set(auth(admin)).expect(204);
      const meta = (await t.http().get(`/api/database/${limitedDb}/metadata`).set(auth(admin)).expect(200)).body;
      const m = await makeModel(t, admin, { database: limitedDb, type: 'query', query: { 'source-table': meta.tables[0].id } });
      const res = await t.http().post(`/api/card/${m.id}/persist`).set(auth(admin)).expect(400);
      expect(res.body.message).toMatch(
        new RegExp(
          `may not create the schema "analytics_cache_[0-9a-f]{8}_${limitedDb}".*CREATE privilege on the database \`analytics_cache_`,
        ),
      );
    },
  );
});
