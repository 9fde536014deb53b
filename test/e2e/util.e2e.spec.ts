import { DataSource } from 'typeorm';
import { ConnectionPoolRegistry } from '../../src/common/database/connection-pools';
import { ProductFeedback } from '../../src/schema/product-feedback.entity';
import { User } from '../../src/schema/user.entity';
import { APP_DB } from '../support/app-db';
import { ADMIN, auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

const MSG_NON_BLANK = 'value must be a non-blank string.';
const UNAUTHENTICATED = 'Unauthenticated';
const FORBIDDEN = "You don't have permissions to do that.";

describe('util', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    user = await makeUserDirect(t);
  });
  afterAll(() => t.close());

  describe('access', () => {
    it.each([
      ['/api/util/bug_report_details'],
      ['/api/util/diagnostic_info/connection_pool_info'],
      ['/api/util/logs'],
      ['/api/util/stats'],
    ])('GET %s needs a signed-in admin', async (path) => {
      expect((await t.http().get(path).expect(401)).text).toBe(UNAUTHENTICATED);
      expect((await t.http().get(path).set(auth(user.session)).expect(403)).text).toBe(FORBIDDEN);
    });

    it('GET random_token and POST product-feedback need a signed-in user', async () => {
      expect((await t.http().get('/api/util/random_token').expect(401)).text).toBe(UNAUTHENTICATED);
      const res = await t.http().post('/api/util/product-feedback').send({ source: 'x' }).expect(401);
      expect(res.text).toBe(UNAUTHENTICATED);
      expect(await t.app.get(DataSource).manager.count(ProductFeedback)).toBe(0);
    });
  });

  describe('GET /api/util/random_token', () => {
    it('answers 32 fresh random bytes as hex', async () => {
      const a = await t.http().get('/api/util/random_token').set(auth(user.session)).expect(200);
      const b = await t.http().get('/api/util/random_token').set(auth(user.session)).expect(200);
      expect(a.body).toEqual({ token: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect(b.body.token).not.toBe(a.body.token);
    });
  });

  describe('POST /api/util/password_check', () => {
    const check = (body: object) => t.http().post('/api/util/password_check').send(body);

    it('accepts a good password without credentials', async () => {
      expect((await check({ password: 'Xk9-long-pass' }).expect(200)).body).toEqual({ valid: true });
    });

    it('refuses a too-common password without echoing it', async () => {
      const res = await check({ password: 'password1' }).expect(400);
      expect(res.body.errors).toEqual({ password: 'password is too common.' });
      expect(res.body['specific-errors'].password).toHaveLength(1);
      expect(res.text).not.toContain('password1');
    });

    it.each([
      [{ password: 'ab1' }, 'password must be at least 6 characters long and include 1 number.'],
      [{ password: 'abcdefgh' }, 'password must be at least 6 characters long and include 1 number.'],
      [{ password: '   ' }, MSG_NON_BLANK],
      [{ password: 123456 }, MSG_NON_BLANK],
      [{}, MSG_NON_BLANK],
    ])('refuses %j', async (body, why) => {
      const res = await check(body).expect(400);
      expect(res.body.errors).toEqual({ password: why });
    });

    it('follows the password-complexity setting', async () => {
      await t.http().put('/api/setting/password-complexity').set(auth(admin)).send({ value: 'strong' }).expect(204);
      try {
        const res = await check({ password: 'Xk9-long-pass' }).expect(400);
        expect(res.body.errors.password).toBe(
          'password must be at least 8 characters long and include 2 lower case letters, 2 upper case letters,' +
            ' 1 number, 1 special character.',
        );
        await check({ password: 'XKk9-long-pass' }).expect(200);
        await t.http().put('/api/setting/password-complexity').set(auth(admin)).send({ value: 'weak' }).expect(204);
        await check({ password: 'abcdefgh' }).expect(200);
      } finally {
        await t.http().put('/api/setting/password-complexity').set(auth(admin)).send({ value: null }).expect(204);
      }
    });
  });

  describe('POST /api/util/product-feedback', () => {
    it('stores the feedback with its author', async () => {
      const db = t.app.get(DataSource).manager;
      await t
        .http()
        .post('/api/util/product-feedback')
        .set(auth(user.session))
        .send({ source: 'data-studio', comments: 'Love it', email: 'me@example.com' })
        .expect(204);
      await t.http().post('/api/util/product-feedback').set(auth(user.session)).send({ source: 'nav', comments: null }).expect(204);
      const rows = await db.find(ProductFeedback, { order: { id: 'ASC' } });
      expect(rows.map(({ user_id, source, comments, email }) => ({ user_id, source, comments, email }))).toEqual([
        { user_id: user.id, source: 'data-studio', comments: 'Love it', email: 'me@example.com' },
        { user_id: user.id, source: 'nav', comments: null, email: null },
      ]);
    });

    it.each([
      [{}, 'source'],
      [{ source: '' }, 'source'],
      [{ source: 7 }, 'source'],
      [{ source: 'x', comments: '  ' }, 'comments'],
      [{ source: 'x', email: '' }, 'email'],
      [{ source: 'x'.repeat(255) }, 'source', 'value must be a string of at most 254 characters.'],
    ])('refuses %j', async (body, param, why = MSG_NON_BLANK) => {
      const before = await t.app.get(DataSource).manager.count(ProductFeedback);
      const res = await t.http().post('/api/util/product-feedback').set(auth(user.session)).send(body).expect(400);
      expect(res.body.errors).toEqual({ [param]: why });
      expect(await t.app.get(DataSource).manager.count(ProductFeedback)).toBe(before);
    });
  });

  describe('GET /api/util/stats', () => {
    it('counts users, groups and keys, and names nobody', async () => {
      const db = t.app.get(DataSource).manager;
      const gone = await makeUserDirect(t);
      await db.update(User, { id: gone.id }, { is_active: false });
      await t.http().post('/api/api-key').set(auth(admin)).send({ name: 'stats key', group_id: 2 }).expect(200);

      const res = await t.http().get('/api/util/stats').set(auth(admin)).expect(200);
      expect(res.body).toEqual({
        version: expect.stringMatching(/^v\d/),
        application_database: APP_DB,
        // Admin, the user and the deactivated one; the key's user is not a person.
        stats: { users: { total: 3, active: 2, admins: 1 }, groups: { total: 2 }, api_keys: { total: 1 } },
      });
      expect(res.text).not.toMatch(/@|Ada|Admin/);
    });
  });

  describe('GET /api/util/bug_report_details', () => {
    it('reports system and instance facts without any secret', async () => {
      const secret = 'ab'.repeat(32);
      const jwtSecret = 'jwt-shared-secret-do-not-leak';
      await t
        .http()
        .put('/api/setting')
        .set(auth(admin))
        .send({
          'embedding-secret-key': secret,
          'jwt-shared-secret': jwtSecret,
          'jwt-identity-provider-uri': 'https://idp.example.com/sso',
        })
        .expect(204);

      const res = await t.http().get('/api/util/bug_report_details').set(auth(admin)).expect(200);
      const sys = res.body['system-info'];
      expect(sys).toMatchObject({ 'node-version': process.version, platform: process.platform, arch: process.arch });
      expect(sys['process-uptime-seconds']).toEqual(expect.any(Number));
      expect(sys['total-memory-mb']).toBeGreaterThan(0);
      const info = res.body['metabase-info'];
      expect(info).toMatchObject({
        version: { tag: expect.stringMatching(/^v\d/) },
        'application-database': APP_DB,
        'application-database-details': {
          database: { name: APP_DB === 'postgres' ? 'PostgreSQL' : 'SQLite', version: expect.any(String) },
        },
        'run-mode': 'test',
        databases: [],
      });
      expect(info.settings).toMatchObject({ 'password-complexity': 'normal', 'enable-public-sharing': false, 'jwt-enabled': false });
      for (const leak of [secret, secret.slice(-2 * 8), jwtSecret, 'idp.example.com', ADMIN.email, t.config.databaseUrl].filter(Boolean)) {
        expect(res.text).not.toContain(leak);
      }
      expect(Object.keys(info.settings).some((k) => /secret|key|certificate/.test(k))).toBe(false);
    });
  });

  describe('GET /api/util/diagnostic_info/connection_pool_info', () => {
    it('shows the app DB pool, and pools registered later', async () => {
      const res = await t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin)).expect(200);
      const pool = res.body['connection-pools']['app-db'];
      expect(Object.keys(pool).sort()).toEqual(['maxPoolSize', 'numBusyConnections', 'numConnections', 'numIdleConnections', 'numWaiting']);
      expect(pool.numIdleConnections + pool.numBusyConnections).toBe(pool.numConnections);
      expect(pool.numWaiting).toBe(0);
      if (APP_DB === 'postgres') {
        expect(pool.maxPoolSize).toBe(10);
        expect(pool.numConnections).toBeGreaterThanOrEqual(1);
        expect(pool.numConnections).toBeLessThanOrEqual(10);
      } else {
        expect(pool).toEqual({ numConnections: 1, numIdleConnections: 1, numBusyConnections: 0, numWaiting: 0, maxPoolSize: 1 });
      }

      const registry = t.app.get(ConnectionPoolRegistry);
      const stats = { numConnections: 3, numIdleConnections: 1, numBusyConnections: 2, numWaiting: 4, maxPoolSize: 5 };
      registry.register('warehouse-7', () => stats);
      try {
        const again = await t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin)).expect(200);
        expect(again.body['connection-pools']['warehouse-7']).toEqual(stats);
      } finally {
        registry.unregister('warehouse-7');
      }
    });
  });

  describe('GET /api/util/logs', () => {
    const logs = async () => (await t.http().get('/api/util/logs').set(auth(admin)).expect(200)).body as Array<Record<string, unknown>>;

    it('shows recent lines newest first, with the request id of each request', async () => {
      const requestId = 'util-logs-test-42';
      await t.http().get('/api/util/random_token').set(auth(user.session)).set('X-Request-Id', requestId).expect(200);
      // The request line is written when the response finishes, which may be just after the client saw it.
      let entries: Array<Record<string, unknown>> = [];
      await until(async () => (entries = await logs()).some((e) => e.request_id === requestId), 30_000);
      const line = entries.find((e) => e.request_id === requestId);
      expect(line).toMatchObject({ level: 'INFO', msg: 'request', timestamp: expect.any(String), process_uuid: expect.any(String) });
      const times = entries.map((e) => Date.parse(String(e.timestamp)));
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });

    it('never shows a password, session key or API key', async () => {
      const wrong = 'Hunter2-never-logged-Zq9';
      await t.http().post('/api/session').send({ username: ADMIN.email, password: wrong }).expect(401);
      const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
      const key = await t.http().post('/api/api-key').set(auth(login.body.id)).send({ name: 'logs key', group_id: 2 }).expect(200);
      await t.http().get('/api/util/logs').set('X-Api-Key', key.body.unmasked_key).expect(200);
      await t.http().post('/api/util/password_check').send({ password: 'password1' }).expect(400);

      const text = JSON.stringify(await logs());
      for (const secret of [wrong, ADMIN.password, login.body.id, key.body.unmasked_key, 'password1']) {
        expect(text).not.toContain(secret);
      }
    });
  });
});
