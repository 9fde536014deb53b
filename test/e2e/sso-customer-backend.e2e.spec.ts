import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCustomerBackend, DEMO_USERS } from '../../examples/customer-backend/app';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, setupAdmin } from '../support/factories';

const ANALYTICS = 'http://analytics.test';
const FRONTEND = 'https://app.customer.test';
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react', 'X-Metabase-Client-Version': '0.52.0', Origin: FRONTEND };

/** The reference customer backend (examples/customer-backend) against the server, driven the way the embedding SDK does. */
describe('reference customer backend with JWT SSO', () => {
  let t: TestApp;
  let admin: string;
  let backend: Server;
  let backendUrl: string;
  let salesGroup: number;

  /** The backend's demo sign-in, as the customer's frontend does it; answers the cookie and the bearer token. */
  const login = async (user = DEMO_USERS[0]) => {
    const res = await fetch(`${backendUrl}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: FRONTEND },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const cookie = res.headers.get('set-cookie')!.split(';')[0];
    return { cookie, token: ((await res.json()) as { token: string }).token };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    const secret = (await t.http().get('/api/util/random_token').set(auth(admin)).expect(200)).body.token as string;
    const app = createCustomerBackend({ analyticsUrl: ANALYTICS, jwtSharedSecret: secret, frontendOrigin: FRONTEND });
    backend = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    salesGroup = (await t.http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Sales' }).expect(200)).body.id;
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({
        'jwt-shared-secret': secret,
        'jwt-identity-provider-uri': `${backendUrl}/sso/analytics`,
        'jwt-enabled': true,
        'jwt-group-sync': true,
        'jwt-group-mappings': { sales: [salesGroup] },
        'enable-embedding-sdk': true,
        'embedding-app-origins-sdk': FRONTEND,
      })
      .expect(204);
  });
  afterAll(async () => {
    await new Promise((resolve) => backend?.close(resolve));
    await t?.close();
  });

  it('signs the SDK in: IdP URL from /auth/sso, {jwt} with response=json, the exchange, then the API with the session', async () => {
    const { cookie } = await login();
    // 1. the SDK asks the server where to get a token
    const where = await t.http().get('/auth/sso').set(SDK).expect(200);
    expect(where.body).toEqual({ url: `${backendUrl}/sso/analytics`, method: 'jwt' });
    expect(where.headers['access-control-allow-origin']).toBe(FRONTEND);
    // 2. it fetches the token from the customer's backend, with credentials
    const tokenRes = await fetch(`${where.body.url}?response=json`, { headers: { Cookie: cookie, Origin: FRONTEND } });
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    const { jwt } = (await tokenRes.json()) as { jwt: string };
    const claims = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ email: DEMO_USERS[0].email, first_name: 'René', last_name: 'Mercier', groups: ['sales'] });
    expect(claims.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(590);
    // 3. it exchanges the token (preflight first, as a browser would)
    const pre = await t
      .http()
      .options('/auth/sso')
      .set('Origin', FRONTEND)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type, x-metabase-client')
      .expect(204);
    expect(pre.headers['access-control-allow-origin']).toBe(FRONTEND);
    const session = await t.http().post('/auth/sso').set(SDK).send({ jwt }).expect(200);
    expect(session.body).toEqual({ status: 'ok', id: expect.any(String), exp: claims.exp, iat: claims.iat });
    // 4. and calls the API with the session
    const me = await t.http().get('/api/user/current').set(SDK).set('X-Metabase-Session', session.body.id).expect(200);
    expect(me.body).toMatchObject({ email: DEMO_USERS[0].email, first_name: 'René', last_name: 'Mercier' });
    expect(me.body.user_group_memberships.map((m: { id: number }) => m.id).sort()).toEqual([1, salesGroup].sort());
    const props = await t.http().get('/api/session/properties').set(SDK).set('X-Metabase-Session', session.body.id).expect(200);
    expect(props.body['token-features']).toMatchObject({ embedding_sdk: true, sso_jwt: true });
  });

  it('serves a token to a client that sends a bearer header instead of cookies (custom fetchRequestToken)', async () => {
    const { token } = await login(DEMO_USERS[1]);
    const res = await fetch(`${backendUrl}/sso/analytics?response=json`, { headers: { Authorization: `Bearer ${token}` } });
    const { jwt } = (await res.json()) as { jwt: string };
    const session = await t.http().get('/auth/sso').set(SDK).query({ jwt, token: 'true' }).expect(200);
    expect((await t.http().get('/api/user/current').set(auth(session.body.id)).expect(200)).body.email).toBe(DEMO_USERS[1].email);
  });

  it('answers 401 {status: error, message} when nobody is signed in at the customer', async () => {
    const res = await fetch(`${backendUrl}/sso/analytics?response=json`, { headers: { Origin: FRONTEND } });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ status: 'error', message: expect.any(String) });
    expect(res.headers.get('access-control-allow-origin')).toBe(FRONTEND);
    const other = await fetch(`${backendUrl}/sso/analytics?response=json`, { headers: { Origin: 'https://evil.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('full-app embedding: the backend redirects to /auth/sso?token=true&jwt=..., which signs in and returns', async () => {
    const { cookie } = await login();
    const res = await fetch(`${backendUrl}/sso/analytics?return_to=${encodeURIComponent('/dashboard/1')}`, {
      headers: { Cookie: cookie },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(`${ANALYTICS}/auth/sso`);
    expect(target.searchParams.get('token')).toBe('true');
    const signedIn = await t.http().get(`${target.pathname}${target.search}`).expect(302);
    expect(signedIn.headers.location).toBe('/dashboard/1');
    const sessionCookie = (signedIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('metabase.SESSION='))!;
    expect((await t.http().get('/api/user/current').set('Cookie', sessionCookie.split(';')[0]).expect(200)).body.email).toBe(
      DEMO_USERS[0].email,
    );
  });

  it('a token signed with another secret is refused', async () => {
    const rogue = createCustomerBackend({ analyticsUrl: ANALYTICS, jwtSharedSecret: 'not-the-shared-secret-at-all' });
    const server = await new Promise<Server>((resolve) => {
      const s = rogue.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const login = await fetch(`${url}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: DEMO_USERS[0].email, password: DEMO_USERS[0].password }),
      });
      const { token } = (await login.json()) as { token: string };
      const { jwt } = (await (
        await fetch(`${url}/sso/analytics?response=json`, { headers: { Authorization: `Bearer ${token}` } })
      ).json()) as { jwt: string };
      await t.http().post('/auth/sso').set(SDK).send({ jwt }).expect(401);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
