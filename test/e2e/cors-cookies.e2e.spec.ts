import { startTestApp, TestApp } from '../support/test-app';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { CORS_ALLOWED_HEADERS } from '../../src/common/http/embedding-http';

const APP = 'https://app.customer.com';

describe('CORS, API keys from embedding clients, cookies and framing', () => {
  let t: TestApp;
  let admin: string;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);
  const preflight = (path: string, origin: string, on = t) =>
    on
      .http()
      .options(path)
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-metabase-session, content-type');

  beforeAll(async () => {
    t = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' });
    admin = await setupAdmin(t);
    await settings({ 'enable-embedding-sdk': true, 'embedding-app-origins-sdk': `${APP} *.partner.io staging.customer.com:8443` });
  });
  afterAll(() => t.close());

  describe('CORS', () => {
    it('answers preflights of approved origins with the methods and headers clients send', async () => {
      for (const origin of [
        APP,
        'https://eu.partner.io',
        'http://a.b.partner.io',
        'https://staging.customer.com:8443',
        'http://localhost:3100',
        'http://127.0.0.1:5173',
      ]) {
        const res = await preflight('/api/user/current', origin).expect(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-credentials']).toBe('true');
        expect(res.headers.vary).toMatch(/Origin/);
        expect(res.headers['access-control-allow-methods']).toMatch(/GET.*POST.*PUT.*DELETE/);
        for (const h of CORS_ALLOWED_HEADERS) expect(res.headers['access-control-allow-headers']).toContain(h);
      }
      const sso = await preflight('/auth/sso', APP).expect(204);
      expect(sso.headers['access-control-allow-origin']).toBe(APP);
    });

    it('adds the CORS headers to plain requests of approved origins', async () => {
      const res = await t.http().get('/api/user/current').set('Origin', APP).set(auth(admin)).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(APP);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers.vary).toMatch(/Origin/);
      const unauth = await t.http().get('/api/user/current').set('Origin', APP).expect(401);
      expect(unauth.headers['access-control-allow-origin']).toBe(APP);
    });

    it('gives other origins no CORS header, preflight or plain', async () => {
      for (const origin of [
        'https://evil.com',
        'https://app.customer.com.evil.com',
        'https://partner.io',
        'https://staging.customer.com',
        'http://app.customer.com:8080',
        'null',
      ]) {
        const pre = await preflight('/api/user/current', origin);
        expect(pre.headers['access-control-allow-origin']).toBeUndefined();
        expect(pre.headers['access-control-allow-credentials']).toBeUndefined();
        const plain = await t.http().get('/api/user/current').set('Origin', origin).set(auth(admin)).expect(200);
        expect(plain.headers['access-control-allow-origin']).toBeUndefined();
        expect(plain.headers.vary).toMatch(/Origin/);
      }
      // not on other paths
      const health = await t.http().get('/health').set('Origin', APP);
      expect(health.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('approves no origin, localhost included, while the SDK is off', async () => {
      await settings({ 'enable-embedding-sdk': false });
      try {
        for (const origin of [APP, 'http://localhost:3100']) {
          expect((await preflight('/api/user/current', origin)).headers['access-control-allow-origin']).toBeUndefined();
        }
      } finally {
        await settings({ 'enable-embedding-sdk': true });
      }
    });

    it('follows a change of the origins made on another instance', async () => {
      const other = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' }, t);
      try {
        const origin = 'https://new.customer.com';
        expect((await preflight('/api/user/current', origin, other)).headers['access-control-allow-origin']).toBeUndefined();
        await settings({ 'embedding-app-origins-sdk': `${APP} ${origin}` });
        await until(async () => (await preflight('/api/user/current', origin, other)).headers['access-control-allow-origin'] === origin);
        await settings({ 'session-cookie-samesite': 'strict' });
        await until(async () => {
          const login = await other.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password });
          return /SameSite=Strict/.test(String(login.headers['set-cookie']));
        });
      } finally {
        await settings({ 'embedding-app-origins-sdk': `${APP} *.partner.io staging.customer.com:8443`, 'session-cookie-samesite': 'lax' });
        await other.close();
      }
    });
  });

  describe('API keys', () => {
    let key: string;
    beforeAll(async () => {
      key = (await t.http().post('/api/api-key').set(auth(admin)).send({ name: 'sdk dev', group_id: 1 }).expect(200)).body.unmasked_key;
    });

    it('work for embedding clients from localhost only', async () => {
      const sdk = { 'X-Metabase-Client': 'embedding-sdk-react', 'X-Api-Key': key };
      await t.http().get('/api/user/current').set(sdk).set('Origin', 'http://localhost:3100').expect(200);
      const refused = await t.http().get('/api/user/current').set(sdk).set('Origin', APP).expect(401);
      expect(refused.body.message).toMatch(/only from localhost/);
      await t.http().get('/api/user/current').set(sdk).expect(401);
      // not embedding clients: scripts keep using keys from anywhere
      await t.http().get('/api/user/current').set('X-Api-Key', key).set('Origin', APP).expect(200);
      await t.http().get('/api/user/current').set('X-Api-Key', key).expect(200);
    });
  });

  describe('session cookie', () => {
    const cookieOf = async () => {
      const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
      return (login.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('metabase.SESSION='))!;
    };

    it('is HttpOnly with the SameSite of the setting; None is Secure and needs an https site URL', async () => {
      let cookie = await cookieOf();
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/Secure/);

      await settings({ 'session-cookie-samesite': 'strict' });
      cookie = await cookieOf();
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Strict/);

      const refused = await t.http().put('/api/setting/session-cookie-samesite').set(auth(admin)).send({ value: 'none' }).expect(400);
      expect(refused.body.errors['session-cookie-samesite']).toMatch(/https/);
      await settings({ 'site-url': 'http://analytics.customer.com' });
      await t.http().put('/api/setting/session-cookie-samesite').set(auth(admin)).send({ value: 'none' }).expect(400);
      await settings({ 'site-url': 'https://analytics.customer.com', 'session-cookie-samesite': 'none' });
      cookie = await cookieOf();
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; SameSite=None/);
      await settings({ 'session-cookie-samesite': 'lax', 'site-url': null });
    });
  });

  describe('framing', () => {
    it('lets /public and /embed be framed anywhere, interactive pages only by the interactive origins', async () => {
      const csp = async (path: string) => (await t.http().get(path)).headers['content-security-policy'];
      expect(await csp('/public/dashboard/x')).toBe('frame-ancestors *');
      expect(await csp('/embed/question/x')).toBe('frame-ancestors *');
      expect(await csp('/api/public/card/x')).toBe('frame-ancestors *');
      expect(await csp('/dashboard/1')).toBe("frame-ancestors 'none'");
      await settings({ 'enable-embedding-interactive': true, 'embedding-app-origins-interactive': `${APP} *.partner.io` });
      expect(await csp('/dashboard/1')).toBe(`frame-ancestors ${APP} *.partner.io`);
      await settings({ 'enable-embedding-interactive': false });
      expect(await csp('/dashboard/1')).toBe("frame-ancestors 'none'");
    });
  });
});
