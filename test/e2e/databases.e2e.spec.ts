import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { AppLogger } from '../../src/common/logging/app-logger';
import { ENGINES, type Engine } from '../../src/query-engine/execute/drivers';
import { MSG } from '../../src/common/validation/messages';
import { DatabasesRepository } from '../../src/modules/databases/databases.repository';
import { SyncService } from '../../src/modules/sync/sync.service';
import { WarehouseConnections } from '../../src/modules/warehouse/warehouse-connections';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { SCHEMA } from '../engines/fixture';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { syncLog, syncThroughApi, waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(90_000);

const MASK = '**MetabasePass**';
const FORBIDDEN = "You don't have permissions to do that.";
const ENCRYPTION_KEY = `test-key-${randomBytes(12).toString('hex')}`;
const engines = availableEngines();
const isServer = (e: Engine): e is 'postgres' | 'mysql' => e === 'postgres' || e === 'mysql';

const ITEMS = [
  'CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(50), category VARCHAR(20))',
  "INSERT INTO items VALUES (1, 'a', 'x'), (2, 'b', 'x'), (3, 'c', 'y')",
];

/** A failed request says what failed, as `{message}` (plus `errors` for details), never with a stack. */
function expectMessage(res: Response, status: number, message: string | RegExp) {
  expect([res.status, res.body.message]).toEqual([status, typeof message === 'string' ? message : expect.stringMatching(message)]);
  expect(res.text).not.toMatch(/\bat .+\.(ts|js):\d+|stack|QueryFailedError/);
}
function expectDetailsError(res: Response, field: string, message: string | RegExp) {
  expectMessage(res, 400, message);
  expect(Object.keys(res.body.errors)).toEqual([field]);
}

describe('databases API', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  const http = () => t.http();
  const ds = () => t.app.get(DataSource);
  const storedDetails = async (id: number): Promise<string> =>
    (await ds().createQueryBuilder().select('d.details', 'details').from('metabase_database', 'd').where('d.id = :id', { id }).getRawOne())
      .details;
  const countWhere = async (table: string, where: string, params: Record<string, unknown>): Promise<number> =>
    Number((await ds().createQueryBuilder().select('COUNT(*)', 'n').from(table, 'x').where(where, params).getRawOne()).n);
  const warehouses: E2eWarehouse[] = [];

  /** A SQLite warehouse with the items table, connected and synced. */
  async function connectSqlite(name = `SQLite ${randomBytes(3).toString('hex')}`): Promise<{ id: number; wh: E2eWarehouse }> {
    const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ITEMS });
    warehouses.push(wh);
    const res = await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name, details: wh.details }).expect(200);
    await waitForSync(t, admin, res.body.id);
    await waitForIdle(t, res.body.id);
    return { id: res.body.id, wh };
  }

  beforeAll(async () => {
    t = await startTestApp({ ENCRYPTION_KEY });
    admin = await setupAdmin(t);
    user = await makeUserDirect(t);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  describe.each(engines)('connecting %s', (engine) => {
    const password = `Wh-pass-${randomBytes(6).toString('hex')}!`;
    let wh: E2eWarehouse;
    let created: Response;
    let id: number;

    beforeAll(async () => {
      wh = await e2eWarehouse(engine, t.config.dataDir, { statements: ITEMS, password: isServer(engine) ? password : undefined });
      warehouses.push(wh);
      created = await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `My ${engine}`, details: wh.details, metadata_sync_interval_minutes: 120 });
      id = created.body.id;
      if (created.status === 200) {
        await waitForSync(t, admin, id);
        await waitForIdle(t, id);
      }
    });

    it('answers 200 with the database view, the password masked', () => {
      expect(created.status).toBe(200);
      const expectedDetails = isServer(engine) ? { ...wh.details, password: MASK } : wh.details;
      expect(created.body).toMatchObject({
        name: `My ${engine}`,
        engine,
        details: expectedDetails,
        is_sample: false,
        is_full_sync: true,
        auto_run_queries: true,
        native_permissions: 'write',
        metadata_sync_interval_minutes: 120,
        field_values_interval_minutes: 1440,
      });
      expect(created.body.features).toContain('basic-aggregations');
      expect(JSON.stringify(created.body)).not.toContain(password);
      // A role made for the test, with rights on its database only: nothing to warn about.
      expect(created.body.warnings).toEqual([]);
    });

    it('stores the password encrypted, never in plain text', async () => {
      const stored = await storedDetails(id);
      expect(stored).not.toContain(password);
      if (isServer(engine)) expect(JSON.parse(stored).password).toMatch(/^enc:v2:/);
      else expect(JSON.parse(stored)).toEqual({ db: wh.file });
      expect(JSON.stringify(t.app.get(AppLogger).buffer)).not.toContain(password);
    });

    it('shows the details (masked) to admins and no details to other users', async () => {
      const asAdmin = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body;
      expect(asAdmin).toMatchObject({ id, initial_sync_status: 'complete', details: created.body.details });
      const listed = (await http().get('/api/database').set(auth(admin)).expect(200)).body.data.find((d: { id: number }) => d.id === id);
      expect(listed.details).toEqual(created.body.details);
      const asUser = await http().get(`/api/database/${id}`).set(auth(user.session)).expect(200);
      expect(asUser.body).toMatchObject({ id, name: `My ${engine}`, native_permissions: 'write' });
      expect(asUser.body).not.toHaveProperty('details');
      const userList = (await http().get('/api/database').set(auth(user.session)).expect(200)).body.data.find(
        (d: { id: number }) => d.id === id,
      );
      expect(userList).not.toHaveProperty('details');
      expect(asUser.text + JSON.stringify(userList)).not.toContain(password);
    });

    it('syncs the tables and fields, and lists schemas and the tables of a schema', async () => {
      const meta = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body;
      expect(meta.tables.map((x: { name: string }) => x.name)).toEqual(['items']);
      expect(meta.tables[0].fields.map((f: { name: string; semantic_type: string | null }) => [f.name, f.semantic_type])).toEqual([
        ['id', 'type/PK'],
        ['name', 'type/Name'],
        ['category', 'type/Category'],
      ]);
      const fields = (await http().get(`/api/database/${id}/fields`).set(auth(user.session)).expect(200)).body;
      expect(fields.map((f: { name: string; table_name: string; schema: string | null }) => [f.table_name, f.schema, f.name])).toEqual([
        ['items', SCHEMA[engine], 'id'],
        ['items', SCHEMA[engine], 'name'],
        ['items', SCHEMA[engine], 'category'],
      ]);
      const schema = SCHEMA[engine] ?? '';
      expect((await http().get(`/api/database/${id}/schemas`).set(auth(user.session)).expect(200)).body).toEqual([schema]);
      const tables = (await http().get(`/api/database/${id}/schema/${schema}`).set(auth(user.session)).expect(200)).body;
      expect(tables.map((x: { name: string; db_id: number }) => [x.db_id, x.name])).toEqual([[id, 'items']]);
      expect(tables[0]).not.toHaveProperty('fields');
      await http().get(`/api/database/${id}/schema/nope`).set(auth(admin)).expect(404);
    });

    it('keeps the secret when an update sends the mask back', async () => {
      const current = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body;
      const res = await http()
        .put(`/api/database/${id}`)
        .set(auth(admin))
        .send({ name: `Renamed ${engine}`, details: current.details });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ name: `Renamed ${engine}`, details: current.details });
      const stored = await storedDetails(id);
      expect(stored).not.toContain(password);
      expect(stored).not.toContain(MASK);
      // The connection still works with the kept secret (on MariaDB the password is really checked).
      expect(await syncThroughApi(t, admin, id)).toMatchObject({ status: 'succeeded', error: null });
    });

    if (isServer(engine)) {
      it.each([
        ['host', { host: 'localhost' }, 'host'],
        ['port', { port: engine === 'postgres' ? 5433 : 3307 }, 'port'],
        ['user', { user: 'someone_else' }, 'user'],
        ['host and port', { host: 'evil.example', port: 1 }, 'host and port'],
        ['TLS verification', { ssl: true, 'ssl-verify': false }, 'ssl-verify'],
      ])('refuses to keep the masked password when the %s change(s), and changes nothing', async (_what, change, named) => {
        const current = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body;
        const before = await storedDetails(id);
        const res = await http()
          .put(`/api/database/${id}`)
          .set(auth(admin))
          .send({ name: 'Moved', details: { ...current.details, ...change } });
        expect(res.status).toBe(400);
        expect(res.body.errors).toEqual({
          password: `the password must be given again when ${named} change${named.includes(' and ') ? '' : 's'}.`,
        });
        expect(res.body['specific-errors'].password[0]).toContain(`received: "${MASK}"`);
        expect(await storedDetails(id)).toBe(before);
        expect((await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body.name).toBe(current.name);
      });

      it('accepts a changed target when the password is given again', async () => {
        const current = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body;
        // The same server under another name: what matters is that the password came with the request.
        const host = current.details.host === 'localhost' ? '127.0.0.1' : 'localhost';
        const res = await http()
          .put(`/api/database/${id}`)
          .set(auth(admin))
          .send({ details: { ...current.details, host, password } });
        expect([res.status, res.body.details?.host]).toEqual([200, host]);
        expect(res.body.warnings).toEqual([]);
      });
    }

    if (engine === 'mysql') {
      it('refuses an update with a wrong password and keeps the stored one', async () => {
        const before = await storedDetails(id);
        const res = await http()
          .put(`/api/database/${id}`)
          .set(auth(admin))
          .send({ details: { ...wh.details, password: 'wrong' } });
        expectMessage(res, 400, `Password authentication failed for user "${wh.details.user}".`);
        expect(await storedDetails(id)).toBe(before);
        expect(await syncThroughApi(t, admin, id)).toMatchObject({ status: 'succeeded' });
      });
    }
  });

  describe.each(engines.filter(isServer))('a privileged %s role', (engine) => {
    it('is connected with a warning in the answer and the log, and no secret in either', async () => {
      // The test servers' admin accounts: Postgres' superuser, MariaDB's root with ALL PRIVILEGES ON *.*.
      const wh = await e2eWarehouse(engine, t.config.dataDir);
      warehouses.push(wh);
      const res = await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Privileged ${engine}`, details: wh.details })
        .expect(200);
      expect(res.body.warnings).toEqual([
        engine === 'postgres'
          ? expect.stringMatching(
              /^The connection's role is a Postgres superuser: .*Connect with a role that can only read the data it needs\.$/,
            )
          : expect.stringMatching(/^The connection's account has the global FILE and SUPER privileges: /),
      ]);
      const logged = t.app
        .get(AppLogger)
        .buffer.recent()
        .filter((e) => e.msg === 'Warehouse connection has more privileges than it needs');
      expect(logged.length).toBeGreaterThan(0);
      // A change of details checks again.
      const again = await http()
        .put(`/api/database/${res.body.id}`)
        .set(auth(admin))
        .send({ details: { ...wh.details } })
        .expect(200);
      expect(again.body.warnings).toEqual(res.body.warnings);
      await waitForSync(t, admin, res.body.id);
      await waitForIdle(t, res.body.id);
    });
  });

  describe('connection failures are 400s that name what failed', () => {
    const cases: Array<[string, Engine, () => Record<string, unknown>, RegExp]> = [
      [
        'a missing SQLite file',
        'sqlite',
        () => ({ db: path.join(t.config.dataDir, 'missing.db') }),
        /^File .*missing\.db does not exist\.$/,
      ],
      [
        'a file that is not a SQLite database',
        'sqlite',
        () => ({ db: notADatabase() }),
        /^File .*not-a-db\.txt is not a SQLite database\.$/,
      ],
      ['a missing DuckDB file', 'duckdb', () => ({ db: 'missing.duckdb' }), /^File .*missing\.duckdb does not exist\.$/],
      [
        'a Postgres port nobody listens on',
        'postgres',
        () => ({ host: '127.0.0.1', port: 1, dbname: 'x', user: 'postgres' }),
        /^Could not connect to host 127\.0\.0\.1:1: connection refused\.$/,
      ],
      [
        'an unknown Postgres host',
        'postgres',
        () => ({ host: 'no-such-host.invalid', dbname: 'x', user: 'postgres' }),
        /^Could not connect to host no-such-host\.invalid:5432: unknown host\.$/,
      ],
      [
        'an unknown Postgres database',
        'postgres',
        () => ({ ...serverDetails('postgres'), dbname: 'no_such_db_x' }),
        /^Database "no_such_db_x" does not exist\.$/,
      ],
      [
        'a MariaDB port nobody listens on',
        'mysql',
        () => ({ host: '127.0.0.1', port: 1, dbname: 'x', user: 'root' }),
        /^Could not connect to host 127\.0\.0\.1:1: connection refused\.$/,
      ],
      [
        'a wrong MariaDB password',
        'mysql',
        () => ({ ...serverDetails('mysql'), password: 'not-the-password' }),
        /^Password authentication failed for user ".+"\.$/,
      ],
    ];
    const runnable = cases.filter(([, engine]) => engines.includes(engine) || engine === 'sqlite' || engine === 'duckdb');
    const serverInfo = new Map<Engine, Record<string, unknown>>();
    function serverDetails(engine: Engine) {
      return serverInfo.get(engine)!;
    }
    function notADatabase() {
      const file = path.join(t.config.dataDir, 'not-a-db.txt');
      fs.writeFileSync(file, 'hello, this is text and not SQLite '.repeat(40));
      return file;
    }
    beforeAll(async () => {
      // Existing server databases to point at (with a real user), for the wrong-password and unknown-database cases.
      for (const engine of engines.filter(isServer)) {
        const wh = await e2eWarehouse(engine, t.config.dataDir);
        warehouses.push(wh);
        serverInfo.set(engine, wh.details);
      }
    });

    it.each(runnable)('%s (%s)', async (_what, engine, details, message) => {
      const before = (await http().get('/api/database').set(auth(admin)).expect(200)).body.total;
      const res = await http().post('/api/database').set(auth(admin)).send({ engine, name: 'Broken', details: details() });
      expectMessage(res, 400, message);
      expect(Object.keys(res.body)).toEqual(['message']);
      expect((await http().get('/api/database').set(auth(admin)).expect(200)).body.total).toBe(before);
    });
  });

  describe('details are validated per engine', () => {
    const server = { host: '127.0.0.1', dbname: 'x', user: 'u' };
    const insideDataDir = /^db must be a file inside the data directory \(.+\)\.$/;
    const cases: Array<[string, Engine, () => unknown, string, string | RegExp]> = [
      ['a missing host', 'postgres', () => ({ dbname: 'x', user: 'u' }), 'host', 'host is required and must be a non-blank string.'],
      ['a blank host', 'mysql', () => ({ ...server, host: '  ' }), 'host', 'host is required and must be a non-blank string.'],
      [
        'a host with options in it',
        'postgres',
        () => ({ ...server, host: 'h?sslmode=disable' }),
        'host',
        'host must be a host name or an IP address.',
      ],
      ['a port out of range', 'postgres', () => ({ ...server, port: 70000 }), 'port', 'port must be an integer between 1 and 65535.'],
      ['a port that is not a number', 'mysql', () => ({ ...server, port: '33a' }), 'port', 'port must be an integer between 1 and 65535.'],
      ['a missing user', 'mysql', () => ({ host: 'h', dbname: 'x' }), 'user', 'user is required and must be a non-blank string.'],
      [
        'an unknown key',
        'postgres',
        () => ({ ...server, sslfactory: 'x' }),
        'sslfactory',
        'sslfactory is not a supported connection setting for postgres.',
      ],
      [
        'JDBC-style additional options',
        'mysql',
        () => ({ ...server, 'additional-options': 'allowLoadLocalInfile=true' }),
        'additional-options',
        'Additional connection options are not supported.',
      ],
      ['an SSH tunnel', 'postgres', () => ({ ...server, 'tunnel-enabled': true }), 'tunnel-enabled', 'SSH tunnels are not supported.'],
      ['a non-boolean ssl', 'postgres', () => ({ ...server, ssl: 'yes' }), 'ssl', 'ssl must be true or false.'],
      [
        'a server key on SQLite',
        'sqlite',
        () => ({ db: 'x.db', host: 'h' }),
        'host',
        'host is not a supported connection setting for sqlite.',
      ],
      ['a missing db', 'sqlite', () => ({}), 'db', 'db is required and must be a non-blank string.'],
      ['a SQLite path outside DATA_DIR', 'sqlite', () => ({ db: '/etc/passwd' }), 'db', insideDataDir],
      ['a `..` traversal', 'sqlite', () => ({ db: '../outside.db' }), 'db', insideDataDir],
      [
        'a `..` traversal in the middle',
        'duckdb',
        () => ({ db: `warehouses/../../x-${randomBytes(2).toString('hex')}.duckdb` }),
        'db',
        insideDataDir,
      ],
      ['DATA_DIR itself', 'sqlite', () => ({ db: '.' }), 'db', insideDataDir],
      // Whoever may query a warehouse would read the password hashes and secrets of the server itself.
      ['the app database', 'sqlite', () => ({ db: 'app.db' }), 'db', 'db cannot be the app database of this server.'],
      [
        'the app database by another path',
        'duckdb',
        () => ({ db: path.join(t.config.dataDir, 'warehouses', '..', 'app.db') }),
        'db',
        'db cannot be the app database of this server.',
      ],
      [
        'the write-ahead log of the app database',
        'sqlite',
        () => ({ db: 'app.db-wal' }),
        'db',
        'db cannot be the app database of this server.',
      ],
      ['a symlink out of DATA_DIR', 'sqlite', () => ({ db: symlinkOut() }), 'db', insideDataDir],
      [':memory:', 'sqlite', () => ({ db: ':memory:' }), 'db', 'db must be a file path, not an in-memory database or a URI.'],
      ['a file: URI', 'sqlite', () => ({ db: 'file:x.db?mode=rwc' }), 'db', 'db must be a file path, not an in-memory database or a URI.'],
      ['a directory', 'duckdb', () => ({ db: 'warehouses' }), 'db', /is not a file\.$/],
      ['details that are not a map', 'postgres', () => ['host'], 'details', /must be a map/],
    ];
    function symlinkOut() {
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'outside-'));
      fs.writeFileSync(path.join(outside, 'secret.db'), '');
      const link = path.join(t.config.dataDir, `link-${randomBytes(3).toString('hex')}.db`);
      fs.symlinkSync(path.join(outside, 'secret.db'), link);
      return link;
    }
    beforeAll(() => fs.mkdirSync(path.join(t.config.dataDir, 'warehouses'), { recursive: true }));

    it.each(cases)('refuses %s (%s)', async (_what, engine, details, field, message) => {
      const res = await http().post('/api/database').set(auth(admin)).send({ engine, name: 'Bad', details: details() });
      if (field === 'details') {
        expect(res.status).toBe(400);
        expect(res.body.errors.details).toMatch(message);
        return;
      }
      expectDetailsError(res, field, message);
      expect(res.body.errors[field]).toBe(res.body.message);
    });

    it('refuses an engine that is not one of the four', async () => {
      const res = await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'h2', name: 'H2', details: { db: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual({ engine: MSG.oneOf(ENGINES) });
      expect(res.body['specific-errors'].engine[0]).toContain('received: "h2"');
    });

    it('refuses a missing name and out-of-range sync intervals', async () => {
      const base = { engine: 'sqlite', name: 'x', details: { db: 'x.db' } };
      const bad = async (body: object, param: string) => {
        const res = await http()
          .post('/api/database')
          .set(auth(admin))
          .send({ ...base, ...body });
        expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([400, [param]]);
      };
      await bad({ name: undefined }, 'name');
      await bad({ name: ' ' }, 'name');
      await bad({ metadata_sync_interval_minutes: 1 }, 'metadata_sync_interval_minutes');
      await bad({ field_values_interval_minutes: 100_000 }, 'field_values_interval_minutes');
      await bad({ details: 'db=x.db' }, 'details');
    });
  });

  describe('who may do what', () => {
    let id: number;
    beforeAll(async () => {
      ({ id } = await connectSqlite());
    });

    it('lets only admins create, change, delete and sync databases', async () => {
      const s = auth(user.session);
      const forbidden = (res: Response) => expect([res.status, res.text]).toEqual([403, FORBIDDEN]);
      forbidden(
        await http()
          .post('/api/database')
          .set(s)
          .send({ engine: 'sqlite', name: 'x', details: { db: 'x.db' } }),
      );
      forbidden(await http().put(`/api/database/${id}`).set(s).send({ name: 'mine' }));
      forbidden(await http().delete(`/api/database/${id}`).set(s));
      for (const action of ['sync_schema', 'rescan_values', 'discard_values'])
        forbidden(await http().post(`/api/database/${id}/${action}`).set(s));
      forbidden(await http().get(`/api/database/${id}/sync_log`).set(s));
      await http().get(`/api/database/${id}`).expect(401);
      expect((await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body.name).not.toBe('mine');
    });

    it('shows users the databases their groups may read, and hides the others once revoked', async () => {
      const s = auth(user.session);
      const listIds = async (session: string, query = '') =>
        (await http().get(`/api/database${query}`).set(auth(session)).expect(200)).body.data.map((d: { id: number }) => d.id);
      expect(await listIds(user.session)).toContain(id);
      const withTables = (await http().get('/api/database?include=tables').set(s).expect(200)).body.data.find(
        (d: { id: number }) => d.id === id,
      );
      expect(withTables.tables.map((x: { name: string }) => x.name)).toEqual(['items']);
      await http().get('/api/database?include=fields').set(s).expect(400);
      for (const p of ['', '/metadata', '/fields', '/schemas', '/schema/']) await http().get(`/api/database/${id}${p}`).set(s).expect(200);
      const meta = (await http().get(`/api/database/${id}/metadata`).set(s).expect(200)).body;
      expect(meta).not.toHaveProperty('details');
      expect(meta.tables[0].fields).toHaveLength(3);

      const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
      await http()
        .put('/api/permissions/graph')
        .set(auth(admin))
        .send({ revision: graph.revision, groups: { [ALL_USERS_GROUP_ID]: { [id]: { data: 'no', native: 'none' } } } })
        .expect(200);
      expect(await listIds(user.session)).not.toContain(id);
      for (const p of ['', '/metadata', '/fields', '/schemas', '/schema/']) {
        const res = await http().get(`/api/database/${id}${p}`).set(s);
        expect([p, res.status, res.text]).toEqual([p, 403, FORBIDDEN]);
      }
      // Admins still see everything; a database that does not exist is 404 for everyone.
      expect(await listIds(admin)).toContain(id);
      for (const p of ['/metadata', '/fields', '/schemas', '/schema/'])
        await http().get(`/api/database/${id}${p}`).set(auth(admin)).expect(200);
      await http().get('/api/database/999999').set(s).expect(404);
      await http().get('/api/database/999999/metadata').set(auth(admin)).expect(404);
      await http().get('/api/database/abc').set(auth(admin)).expect(400);
    });
  });

  describe('hidden tables and sensitive fields', () => {
    it('keeps them out of what users browse, and shows them to admins who ask', async () => {
      const { id } = await connectSqlite();
      const meta = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body;
      const tableId = meta.tables[0].id;
      const fieldId = meta.tables[0].fields[1].id;
      await http().put(`/api/field/${fieldId}`).set(auth(admin)).send({ visibility_type: 'sensitive' }).expect(200);
      const forUser = (await http().get(`/api/database/${id}/metadata`).set(auth(user.session)).expect(200)).body;
      expect(forUser.tables[0].fields.map((f: { id: number }) => f.id)).not.toContain(fieldId);
      expect(
        (await http().get(`/api/database/${id}/fields`).set(auth(user.session)).expect(200)).body.map((f: { id: number }) => f.id),
      ).not.toContain(fieldId);
      await http().put(`/api/table/${tableId}`).set(auth(admin)).send({ visibility_type: 'hidden' }).expect(200);
      expect((await http().get(`/api/database/${id}/metadata`).set(auth(user.session)).expect(200)).body.tables).toEqual([]);
      expect(
        (await http().get(`/api/database/${id}/metadata?include_hidden=true`).set(auth(user.session)).expect(200)).body.tables,
      ).toEqual([]);
      const forAdmin = (await http().get(`/api/database/${id}/metadata?include_hidden=true`).set(auth(admin)).expect(200)).body;
      expect(forAdmin.tables[0].fields.map((f: { id: number }) => f.id)).toContain(fieldId);
      await http().get(`/api/database/${id}/metadata?include_hidden=maybe`).set(auth(admin)).expect(400);
    });
  });

  describe('updating', () => {
    let id: number;
    beforeAll(async () => {
      ({ id } = await connectSqlite('Before'));
    });

    it('changes the name, description and sync intervals', async () => {
      const res = await http()
        .put(`/api/database/${id}`)
        .set(auth(admin))
        .send({
          name: 'After',
          description: 'The shop',
          metadata_sync_interval_minutes: 30,
          field_values_interval_minutes: 120,
          cache_ttl: 5,
        })
        .expect(200);
      expect(res.body).toMatchObject({
        id,
        name: 'After',
        description: 'The shop',
        metadata_sync_interval_minutes: 30,
        field_values_interval_minutes: 120,
        cache_ttl: 5,
      });
      const got = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body;
      expect(got).toMatchObject({
        name: 'After',
        description: 'The shop',
        metadata_sync_interval_minutes: 30,
        field_values_interval_minutes: 120,
        initial_sync_status: 'complete',
      });
      await http().put(`/api/database/${id}`).set(auth(admin)).send({ description: null }).expect(200);
      expect((await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body.description).toBeNull();
    });

    it('keeps the open connections across edits that leave the details alone', async () => {
      const connections = t.app.get(WarehouseConnections);
      const load = async () => (await t.app.get(DatabasesRepository).findById(id))!;
      // Last changed a while ago (timestamps may have whole seconds only).
      await ds()
        .createQueryBuilder()
        .update('metabase_database')
        .set({ updated_at: new Date('2024-01-01T00:00:00Z') })
        .where('id = :id', { id })
        .execute();
      const driver = connections.driverFor(await load());
      await http().put(`/api/database/${id}`).set(auth(admin)).send({ name: 'Renamed while in use', cache_ttl: 10 }).expect(200);
      expect(connections.driverFor(await load())).toBe(driver);
      expect((await driver.query('SELECT count(*) FROM items', [], { readOnly: true })).rows).toEqual([[3]]);
      // New details: a new driver, the old one closed.
      const details = (await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body.details;
      await http().put(`/api/database/${id}`).set(auth(admin)).send({ name: 'After', details }).expect(200);
      await waitForIdle(t, id);
      expect(connections.driverFor(await load())).not.toBe(driver);
      await expect(driver.query('SELECT 1')).rejects.toThrow('The connection pool is closed.');
    });

    it('merges database-local settings (database-enable-actions), drops one set to null, refuses unknown ones or bad values', async () => {
      const put = (settings: unknown) => http().put(`/api/database/${id}`).set(auth(admin)).send({ settings });
      expect((await put({ 'database-enable-actions': true }).expect(200)).body.settings).toEqual({ 'database-enable-actions': true });
      expect((await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body.settings).toEqual({
        'database-enable-actions': true,
      });
      expect((await put({ 'no-such-setting': 1 }).expect(400)).body.errors).toEqual({
        settings: 'no-such-setting is not a database setting.',
      });
      expect((await put({ 'database-enable-actions': 'yes' }).expect(400)).body.errors).toEqual({
        settings: 'database-enable-actions: value must be a boolean.',
      });
      expect((await put({ 'database-enable-actions': null }).expect(200)).body.settings).toEqual({});
    });

    it('refuses bad values, bad details and unknown databases', async () => {
      const put = (body: object, target = id) => http().put(`/api/database/${target}`).set(auth(admin)).send(body);
      expect((await put({ metadata_sync_interval_minutes: 2 })).body.errors).toHaveProperty('metadata_sync_interval_minutes');
      expect((await put({ name: '' })).status).toBe(400);
      expectDetailsError(await put({ details: { db: '/etc/hosts' } }), 'db', /inside the data directory/);
      expectMessage(await put({ details: { db: 'missing.db' } }), 400, /does not exist/);
      expectDetailsError(await put({ engine: 'postgres' }), 'db', 'db is not a supported connection setting for postgres.');
      await put({ name: 'x' }, 999999).expect(404);
      expect((await http().get(`/api/database/${id}`).set(auth(admin)).expect(200)).body).toMatchObject({
        engine: 'sqlite',
        name: 'After',
      });
    });
  });

  describe('deleting', () => {
    it('removes the database with its tables, fields, value lists, grants and sync log', async () => {
      const { id } = await connectSqlite();
      const tableIds = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body.tables.map(
        (x: { id: number }) => x.id,
      );
      expect(await countWhere('metabase_field', 'x.table_id IN (:...ids)', { ids: tableIds })).toBe(3);
      await http().delete(`/api/database/${id}`).set(auth(admin)).expect(204);
      await http().get(`/api/database/${id}`).set(auth(admin)).expect(404);
      await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(404);
      await http().get(`/api/database/${id}/sync_log`).set(auth(admin)).expect(404);
      await http().delete(`/api/database/${id}`).set(auth(admin)).expect(404);
      expect(await countWhere('metabase_table', 'x.db_id = :id', { id })).toBe(0);
      expect(await countWhere('metabase_field', 'x.table_id IN (:...ids)', { ids: tableIds })).toBe(0);
      expect(await countWhere('sync_run', 'x.db_id = :id', { id })).toBe(0);
      expect(await countWhere('database_permission', 'x.db_id = :id', { id })).toBe(0);
      const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
      expect(graph.groups[ALL_USERS_GROUP_ID]).not.toHaveProperty(String(id));
    });
  });

  describe('deleting while syncing', () => {
    it('leaves no tables, fields or runs behind', async () => {
      const wh = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ITEMS });
      warehouses.push(wh);
      const sync = t.app.get(SyncService);
      const held = jest.spyOn(sync, 'inBackground').mockImplementation(() => undefined);
      let id: number;
      try {
        id = (
          await http()
            .post('/api/database')
            .set(auth(admin))
            .send({ engine: 'sqlite', name: 'Short-lived', details: wh.details })
            .expect(200)
        ).body.id;
      } finally {
        held.mockRestore();
      }
      const running = sync.run(id, 'metadata').catch(() => false);
      await http().delete(`/api/database/${id}`).set(auth(admin)).expect(204);
      await running;
      expect(await countWhere('metabase_table', 'x.db_id = :id', { id })).toBe(0);
      expect(await countWhere('sync_run', 'x.db_id = :id', { id })).toBe(0);
      const orphans = await ds()
        .createQueryBuilder()
        .select('COUNT(*)', 'n')
        .from('metabase_field', 'f')
        .leftJoin('metabase_table', 'x', 'x.id = f.table_id')
        .where('x.id IS NULL')
        .getRawOne();
      expect(Number(orphans.n)).toBe(0);
    });
  });

  describe('sync actions and the sync log', () => {
    let id: number;
    let wh: E2eWarehouse;
    const valueLists = async () => {
      const tableIds = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body.tables.map(
        (x: { id: number }) => x.id,
      );
      return ds()
        .createQueryBuilder()
        .select('v.field_id', 'field_id')
        .from('metabase_fieldvalues', 'v')
        .innerJoin('metabase_field', 'f', 'f.id = v.field_id')
        .where('f.table_id IN (:...ids)', { ids: tableIds })
        .getRawMany();
    };
    beforeAll(async () => {
      ({ id, wh } = await connectSqlite());
    });

    it('are 404 for a database that does not exist', async () => {
      for (const action of ['sync_schema', 'rescan_values', 'discard_values'])
        await http().post(`/api/database/999999/${action}`).set(auth(admin)).expect(404);
      await http().get('/api/database/999999/sync_log').set(auth(admin)).expect(404);
    });

    it('discards value lists and scans them again', async () => {
      expect(await valueLists()).toHaveLength(1); // items.category
      await http().post(`/api/database/${id}/discard_values`).set(auth(admin)).expect(200, { status: 'ok' });
      expect(await valueLists()).toHaveLength(0);
      expect(await syncThroughApi(t, admin, id, 'rescan_values')).toMatchObject({
        kind: 'field-values',
        status: 'succeeded',
        summary: { field_values_scanned: 1 },
      });
      expect(await valueLists()).toHaveLength(1);
    });

    it('logs every run with its kind, status and instance', async () => {
      const log = await syncLog(t, admin, id);
      expect(log.map((r) => [r.kind, r.status])).toEqual([
        ['field-values', 'succeeded'],
        ['metadata', 'succeeded'],
      ]);
      expect(log[1].summary).toMatchObject({ tables_added: 1, fields_added: 3, fks: 0 });
      for (const r of log) expect(Date.parse(r.ended_at!)).toBeGreaterThanOrEqual(Date.parse(r.started_at));
    });

    it('logs a failed run when the file is gone, and keeps the metadata it had', async () => {
      const before = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body;
      fs.rmSync(wh.file!);
      const run = await syncThroughApi(t, admin, id);
      expect(run).toMatchObject({ kind: 'metadata', status: 'failed', error: `File ${wh.file} does not exist.`, summary: null });
      const after = (await http().get(`/api/database/${id}/metadata`).set(auth(admin)).expect(200)).body;
      expect(after).toMatchObject({ initial_sync_status: 'complete', last_metadata_sync_at: before.last_metadata_sync_at });
      expect(after.tables).toEqual(before.tables);
    });

    it('marks a first sync that failed as aborted, with nothing half written', async () => {
      const wh2 = await e2eWarehouse('sqlite', t.config.dataDir, { statements: ITEMS });
      warehouses.push(wh2);
      // Connects fine; the file disappears before the first sync could read it.
      const sync = t.app.get(SyncService);
      const held = jest.spyOn(sync, 'inBackground').mockImplementation(() => undefined);
      let dbId: number;
      try {
        dbId = (
          await http()
            .post('/api/database')
            .set(auth(admin))
            .send({ engine: 'sqlite', name: 'Vanishing', details: wh2.details })
            .expect(200)
        ).body.id;
      } finally {
        held.mockRestore();
      }
      fs.renameSync(wh2.file!, `${wh2.file}.away`);
      const run = await syncThroughApi(t, admin, dbId);
      expect(run).toMatchObject({ status: 'failed', error: `File ${wh2.file} does not exist.` });
      expect((await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body).toMatchObject({
        initial_sync_status: 'aborted',
        last_metadata_sync_at: null,
        tables: [],
      });
      // Back in place, the next sync completes.
      fs.renameSync(`${wh2.file}.away`, wh2.file!);
      expect(await syncThroughApi(t, admin, dbId)).toMatchObject({ status: 'succeeded' });
      const db = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body;
      expect([db.initial_sync_status, db.tables.map((x: { name: string }) => x.name)]).toEqual(['complete', ['items']]);
    });

    it('syncs the other tables when one view cannot be read', async () => {
      const wh2 = await e2eWarehouse('sqlite', t.config.dataDir, {
        statements: [...ITEMS, 'CREATE VIEW broken AS SELECT abs(-9223372036854775808) AS overflow'],
      });
      warehouses.push(wh2);
      const dbId = (
        await http()
          .post('/api/database')
          .set(auth(admin))
          .send({ engine: 'sqlite', name: 'Broken view', details: wh2.details })
          .expect(200)
      ).body.id;
      expect(await waitForSync(t, admin, dbId)).toMatchObject({ initial_sync_status: 'complete' });
      await waitForIdle(t, dbId);
      const [run] = await syncLog(t, admin, dbId);
      expect(run).toMatchObject({ status: 'succeeded', summary: { tables_added: 2, tables_not_analyzed: 1, field_values_scanned: 1 } });
      const meta = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body;
      const items = meta.tables.find((x: { name: string }) => x.name === 'items');
      expect(items.estimated_row_count).toBe(3);
      expect(items.fields.every((f: { fingerprint: unknown }) => f.fingerprint !== null)).toBe(true);
    });
  });
});
