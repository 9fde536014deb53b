import { ADMIN, auth, setupAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const APP = 'https://app.customer.test';
const EVIL = 'https://evil.example';

/**
 * `embedding-app-origins-sdk` = `*` lets any origin call with the SDK's header session, never with cookies: no
 * `Access-Control-Allow-Credentials` for an origin only the wildcard lets in. Localhost is trusted in development only.
 */
describe('CORS for the embedding SDK: the wildcard and localhost', () => {
  let t: TestApp;
  let admin: string;
  let cookie: string;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);
  const preflight = (origin: string) =>
    t
      .http()
      .options('/api/user/current')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-metabase-session');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    cookie = `metabase.SESSION=${login.body.id}`;
    await settings({ 'enable-embedding-sdk': true, 'embedding-app-origins-sdk': `${APP} *` });
  });
  afterAll(() => t.close());

  it('reflects a foreign origin for `*` without credentials, so the admin cookie cannot be read cross-site', async () => {
    const pre = await preflight(EVIL).expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe(EVIL);
    expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
    const read = await t.http().get('/api/user/current').set('Origin', EVIL).set('Cookie', cookie).expect(200);
    expect(read.headers['access-control-allow-origin']).toBe(EVIL);
    expect(read.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it("still serves the SDK's header session from such an origin", async () => {
    const res = await t.http().get('/api/user/current').set('Origin', EVIL).set(auth(admin)).expect(200);
    expect(res.body.email).toBe(ADMIN.email);
    expect(res.headers['access-control-allow-origin']).toBe(EVIL);
  });

  it('keeps credentials for origins named exactly or by a pattern', async () => {
    await settings({ 'embedding-app-origins-sdk': `${APP} *.partner.test *` });
    try {
      for (const origin of [APP, 'https://eu.partner.test']) {
        const pre = await preflight(origin).expect(204);
        expect(pre.headers['access-control-allow-origin']).toBe(origin);
        expect(pre.headers['access-control-allow-credentials']).toBe('true');
      }
    } finally {
      await settings({ 'embedding-app-origins-sdk': `${APP} *` });
    }
  });

  it('trusts localhost in development only: not with an https site URL, not with NODE_ENV=production', async () => {
    const credentialed = async (origin: string) => (await preflight(origin)).headers['access-control-allow-credentials'] === 'true';
    await settings({ 'embedding-app-origins-sdk': APP });
    try {
      expect(await credentialed('http://localhost:5173')).toBe(true);
      await settings({ 'site-url': 'https://analytics.example.com' });
      expect((await preflight('http://localhost:5173')).headers['access-control-allow-origin']).toBeUndefined();
      await settings({ 'site-url': 'http://analytics.internal' });
      expect(await credentialed('http://127.0.0.1:5173')).toBe(true);
      const env = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      try {
        expect((await preflight('http://127.0.0.1:5173')).headers['access-control-allow-origin']).toBeUndefined();
      } finally {
        process.env.NODE_ENV = env;
      }
    } finally {
      await settings({ 'embedding-app-origins-sdk': `${APP} *`, 'site-url': null });
    }
  });
});
