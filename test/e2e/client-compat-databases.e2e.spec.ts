import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { expect403, expect404 } from '../support/expect-wire';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { waitForIdle } from '../support/sync-runs';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(90_000);

const ITEMS = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(50), category VARCHAR(20))',
  "INSERT INTO items VALUES (1, 'a', 'x'), (2, 'b', 'y')",
];
const HIDDEN = ['CREATE TABLE secrets (id INTEGER PRIMARY KEY, code VARCHAR(20))'];

/**
 * Issue 31, items 2, 3, 8 and 10: the database endpoints real Metabase clients call (health check, validation of
 * connection details, a table's schema sync, a database with its tables), with Metabase's answers and permissions.
 */
describe('database endpoints of Metabase clients', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  const warehouses: E2eWarehouse[] = [];
  const http = () => t.http();

  /** A SQLite warehouse connected through the API and synced. */
  async function connect(statements: readonly string[] = ITEMS): Promise<{ id: number; wh: E2eWarehouse }> {
    const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements });
    warehouses.push(wh);
    const res = await http()
      .post('/api/database')
      .set(auth(admin))
      .send({ engine: 'sqlite', name: `Wh ${warehouses.length}`, details: wh.details })
      .expect(200);
    await waitForSync(t, admin, res.body.id);
    await waitForIdle(t, res.body.id);
    return { id: res.body.id, wh };
  }

  const tableId = async (dbId: number, name: string): Promise<number> => {
    const meta = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body;
    return meta.tables.find((x: { name: string }) => x.name === name).id;
  };

  async function revokeData(dbId: number): Promise<void> {
    const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [dbId]: { data: 'no', native: 'none' } } } })
      .expect(200);
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    user = await makeUserDirect(t);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  describe('GET /api/database/:id/healthcheck', () => {
    it('answers {status: "ok"} when the database accepts a connection, to admins and to users who may read it', async () => {
      const { id } = await connect();
      expect((await http().get(`/api/database/${id}/healthcheck`).set(auth(admin)).expect(200)).body).toEqual({ status: 'ok' });
      expect((await http().get(`/api/database/${id}/healthcheck`).set(auth(user.session)).expect(200)).body).toEqual({ status: 'ok' });
    });

    it("answers the engine's error keyed by the detail at fault, and only a generic message to non-admins", async () => {
      const { id, wh } = await connect();
      fs.rmSync(wh.file!);
      const forAdmin = (await http().get(`/api/database/${id}/healthcheck`).set(auth(admin)).expect(200)).body;
      expect(forAdmin).toEqual({
        status: 'error',
        message: `File ${wh.file} does not exist.`,
        errors: { db: `File ${wh.file} does not exist.` },
      });
      const forUser = (await http().get(`/api/database/${id}/healthcheck`).set(auth(user.session)).expect(200)).body;
      expect(forUser).toEqual({ status: 'error', message: 'Unable to connect to database.' });
    });

    it('is 403 for a user without data access, 404 for an unknown database, 400 for an id that is not one', async () => {
      const { id } = await connect();
      await revokeData(id);
      expect403(await http().get(`/api/database/${id}/healthcheck`).set(auth(user.session)));
      expect404(await http().get('/api/database/987654/healthcheck').set(auth(admin)));
      expect((await http().get('/api/database/abc/healthcheck').set(auth(admin))).status).toBe(400);
      expect((await http().get(`/api/database/${id}/healthcheck`)).status).toBe(401);
    });
  });

  describe('POST /api/database/validate', () => {
    const validate = (body: unknown, session = admin) =>
      http()
        .post('/api/database/validate')
        .set(auth(session))
        .send(body as object);

    it('answers {valid: true} for details that connect, without echoing them', async () => {
      const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ITEMS });
      warehouses.push(wh);
      expect((await validate({ details: { engine: 'sqlite', details: wh.details } }).expect(200)).body).toEqual({ valid: true });
    });

    it("answers {valid: false} with the engine's error keyed by field when they do not", async () => {
      const missing = path.join(fs.realpathSync(t.config.dataDir), 'warehouses', 'missing.db');
      expect((await validate({ details: { engine: 'sqlite', details: { db: missing } } }).expect(200)).body).toEqual({
        valid: false,
        message: `File ${missing} does not exist.`,
        errors: { db: `File ${missing} does not exist.` },
      });
      const outside = (await validate({ details: { engine: 'sqlite', details: { db: '/etc/passwd' } } }).expect(200)).body;
      expect(outside).toEqual({ valid: false, message: expect.any(String), errors: { db: outside.message } });
    });

    it.each(availableEngines(['postgres']))('tries a %s server for real: a missing database is keyed by dbname', async (engine) => {
      const wh = await e2eWarehouse(engine, t.config.dataDir);
      warehouses.push(wh);
      expect((await validate({ details: { engine, details: wh.details } }).expect(200)).body).toEqual({ valid: true });
      const wrong = { ...wh.details, dbname: `${String(wh.details.dbname)}_nope` };
      const res = (await validate({ details: { engine, details: wrong } }).expect(200)).body;
      expect(res).toEqual({
        valid: false,
        message: `Database "${wrong.dbname}" does not exist.`,
        errors: { dbname: `Database "${wrong.dbname}" does not exist.` },
      });
    });

    it('is for admins only, and refuses a body that is not {details: {engine, details}}', async () => {
      expect403(await validate({ details: { engine: 'sqlite', details: { db: 'x.db' } } }, user.session));
      const noEngine = await validate({ details: { engine: 'oracle', details: {} } });
      expect([noEngine.status, Object.keys(noEngine.body.errors)]).toEqual([400, ['details']]);
      const flat = await validate({ engine: 'sqlite', details: 'x' });
      expect([flat.status, Object.keys(flat.body.errors)]).toEqual([400, ['details']]);
      expect((await validate([1, 2])).status).toBe(400);
    });
  });

  describe('POST /api/table/:id/sync_schema', () => {
    it('syncs the table: a column added in the warehouse appears, and the answer is {status: "ok"}', async () => {
      const { id, wh } = await connect();
      const items = await tableId(id, 'items');
      await wh.exec(['ALTER TABLE items ADD COLUMN price REAL']);
      expect((await http().post(`/api/table/${items}/sync_schema`).set(auth(admin)).expect(200)).body).toEqual({ status: 'ok' });
      const fieldNames = async () =>
        (await http().get(`/api/table/${items}/query_metadata`).set(auth(admin)).expect(200)).body.fields.map(
          (f: { name: string }) => f.name,
        );
      await until(async () => (await fieldNames()).includes('price'));
      await waitForIdle(t, id);
      expect((await fieldNames()).sort()).toEqual(['category', 'id', 'name', 'price']);
    });

    it('is 403 for non-admins, 404 for an unknown table, and 422 with the message when the warehouse is gone', async () => {
      const { id, wh } = await connect();
      const items = await tableId(id, 'items');
      expect403(await http().post(`/api/table/${items}/sync_schema`).set(auth(user.session)));
      expect404(await http().post('/api/table/987654/sync_schema').set(auth(admin)));
      fs.rmSync(wh.file!);
      const gone = await http().post(`/api/table/${items}/sync_schema`).set(auth(admin));
      expect([gone.status, gone.body]).toEqual([422, { message: `File ${wh.file} does not exist.` }]);
    });
  });

  describe('GET /api/database/:id?include=tables', () => {
    it('adds the shown tables, and with tables.fields their fields, for users who may read the database', async () => {
      const { id } = await connect([...ITEMS, ...HIDDEN]);
      await http()
        .put(`/api/table/${await tableId(id, 'secrets')}`)
        .set(auth(admin))
        .send({ visibility_type: 'hidden' })
        .expect(200);
      const plain = (await http().get(`/api/database/${id}`).set(auth(user.session)).expect(200)).body;
      expect(plain).not.toHaveProperty('tables');
      const withTables = (await http().get(`/api/database/${id}?include=tables`).set(auth(user.session)).expect(200)).body;
      expect(withTables.tables.map((x: { name: string; db_id: number }) => [x.name, x.db_id])).toEqual([['items', id]]);
      expect(withTables.tables[0]).not.toHaveProperty('fields');
      const withFields = (await http().get(`/api/database/${id}?include=tables.fields`).set(auth(user.session)).expect(200)).body;
      expect(withFields.tables[0].fields.map((f: { name: string }) => f.name)).toEqual(['id', 'name', 'category']);
      expect(withFields.id).toBe(id);
    });

    it('refuses another include, and keeps the database from users without access', async () => {
      const { id } = await connect();
      const bad = await http().get(`/api/database/${id}?include=fields`).set(auth(admin));
      expect([bad.status, Object.keys(bad.body.errors)]).toEqual([400, ['include']]);
      await revokeData(id);
      expect403(await http().get(`/api/database/${id}?include=tables`).set(auth(user.session)));
    });
  });
});
