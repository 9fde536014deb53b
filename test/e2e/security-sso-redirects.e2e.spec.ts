import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { auth, setupAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const IDP = 'https://idp.example.com/sso/metabase';

/**
 * Where a login may send the browser. Without `site-url`, the request's Host header is the caller's to choose, so it
 * never makes an absolute URL ours: only paths and the configured embedding origins are taken. (SAML needs a site URL
 * for its assertion consumer; its RelayState goes through the same check.)
 */
describe('SSO redirect targets without a site URL', () => {
  let t: TestApp;
  let admin: string;
  let secret: string;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);
  const token = () =>
    jwt.sign({ email: `sso-${randomBytes(4).toString('hex')}@example.com` }, secret, { algorithm: 'HS256', expiresIn: 600 });
  const login = (returnTo: string, host?: string) => {
    const req = t.http().get('/auth/sso').query({ jwt: token(), return_to: returnTo });
    return host ? req.set('Host', host) : req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    secret = (await t.http().get('/api/util/random_token').set(auth(admin)).expect(200)).body.token;
    await settings({ 'jwt-identity-provider-uri': IDP, 'jwt-shared-secret': secret, 'jwt-enabled': true });
  });
  afterAll(() => t.close());

  it('refuses a return_to on the host the request names, and signs nobody in', async () => {
    const res = await login('http://evil.example/after-login', 'evil.example').expect(400);
    expect(res.body.message).toBe('Invalid redirect URL');
    expect(res.headers['set-cookie']).toBeUndefined();
    await login('http://127.0.0.1/after-login').expect(400);
  });

  it('takes paths, and the embedding origins trusted with cookies', async () => {
    expect((await login('/after-login', 'evil.example').expect(302)).headers.location).toBe('/after-login');
    await settings({ 'enable-embedding-sdk': true, 'embedding-app-origins-sdk': 'https://app.customer.test *' });
    try {
      expect((await login('https://app.customer.test/after-login').expect(302)).headers.location).toBe(
        'https://app.customer.test/after-login',
      );
      await login('https://evil.example/after-login').expect(400); // `*` lets it call, not redirect
    } finally {
      await settings({ 'enable-embedding-sdk': false });
    }
    await login('https://app.customer.test/after-login').expect(400);
  });

  it('takes the site URL host once one is set', async () => {
    await settings({ 'site-url': 'https://analytics.example.com' });
    try {
      expect((await login('https://analytics.example.com/q/1', 'evil.example').expect(302)).headers.location).toBe(
        'https://analytics.example.com/q/1',
      );
      await login('http://evil.example/after-login', 'evil.example').expect(400);
    } finally {
      await settings({ 'site-url': null });
    }
  });
});
