import { CROSS_SITE_REFUSED } from '../../src/common/http/cross-site.guard';
import { makeCard, nativeQuery } from '../support/card-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse } from '../support/saml-idp';
import { startTestApp, type TestApp } from '../support/test-app';
import { actionWarehouse, queryActionBody, type ActionWarehouse } from './actions-helpers';

const SITE = 'https://analytics.example.com';
const EVIL = 'https://evil.example';
const APP = 'https://app.customer.test';

/**
 * Writes another site makes a browser send with the visitor's session cookie (`SameSite=None`, as cross-site
 * embedding needs): a `fetch(url, {method: 'POST', mode: 'no-cors', credentials: 'include'})` needs no preflight and
 * carries no Content-Type. They are refused; header-authenticated, same-site and approved-origin requests pass.
 */
describe('cross-site requests with the session cookie', () => {
  let t: TestApp;
  let admin: string;
  let cookie: string;
  let w: ActionWarehouse;

  const qty = async () => (await w.rows('SELECT qty FROM items WHERE id = 1'))[0][0];
  const expectRefused = (res: { status: number; body: unknown }) =>
    expect([res.status, res.body]).toEqual([403, { message: CROSS_SITE_REFUSED }]);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'site-url': SITE, 'session-cookie-samesite': 'none', 'enable-public-sharing': true })
      .expect(204);
    const login = await t.http().post('/api/session').send({ username: ADMIN.email, password: ADMIN.password }).expect(200);
    expect(String(login.headers['set-cookie'])).toMatch(/SameSite=None/);
    cookie = `metabase.SESSION=${login.body.id}`;
    w = await actionWarehouse(t, admin, 'sqlite', null);
  });
  afterAll(async () => {
    await t?.close();
    await w?.wh.drop();
  });

  it('refuses an action run from another site with the cookie and no Content-Type; the action does not run', async () => {
    const action = (
      await t
        .http()
        .post('/api/action')
        .set(auth(admin))
        .send(queryActionBody(w.model, w.db, 'UPDATE items SET qty = qty + 1 WHERE id = 1', {}))
        .expect(200)
    ).body;
    const before = await qty();
    expectRefused(await t.http().post(`/api/action/${action.id}/execute`).set('Cookie', cookie).set('Origin', EVIL));
    expect(await qty()).toBe(before);
    // the same from this site, or with the session header, runs it
    await t.http().post(`/api/action/${action.id}/execute`).set('Cookie', cookie).set('Origin', SITE).expect(200);
    await t.http().post(`/api/action/${action.id}/execute`).set(auth(admin)).set('Origin', EVIL).expect(200);
    expect(await qty()).toBe(Number(before) + 2);
  });

  it('refuses making a card public from another site with the admin cookie; the header works', async () => {
    const card = await makeCard(t, admin, nativeQuery(w.db, 'SELECT 1'));
    expectRefused(await t.http().post(`/api/card/${card.id}/public_link`).set('Cookie', cookie).set('Origin', EVIL));
    expect((await t.http().get(`/api/card/${card.id}`).set(auth(admin)).expect(200)).body.public_uuid).toBeNull();
    const made = await t.http().post(`/api/card/${card.id}/public_link`).set('X-Metabase-Session', admin).set('Origin', EVIL).expect(200);
    expect((await t.http().get(`/api/card/${card.id}`).set(auth(admin)).expect(200)).body.public_uuid).toBe(made.body.uuid);
  });

  it('refuses `Origin: null` and, without an Origin, `Sec-Fetch-Site: cross-site`; passes requests without an Origin', async () => {
    const rename = (value: string) => t.http().put('/api/setting/site-name').set('Cookie', cookie).send({ value });
    expectRefused(await rename('Null origin').set('Origin', 'null'));
    expectRefused(await rename('Fetch metadata').set('Sec-Fetch-Site', 'cross-site'));
    await rename('From a script').expect(204);
    await rename('Same origin').set('Sec-Fetch-Site', 'same-origin').expect(204);
    expect((await t.http().get('/api/setting/site-name').set(auth(admin)).expect(200)).body).toBe('Same origin');
  });

  it("passes this site: the site URL's origin, the request's own, and a trusted proxy's forwarded scheme and host", async () => {
    const rename = () => t.http().put('/api/setting/site-name').set('Cookie', cookie).send({ value: 'Ours' });
    await rename().set('Origin', SITE).expect(204);
    await rename().set('Host', 'bi.internal:8080').set('Origin', 'http://bi.internal:8080').expect(204);
    // supertest connects from 127.0.0.1, which TRUST_PROXY's default (loopback) trusts
    await rename()
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'bi.example.org')
      .set('Origin', 'https://bi.example.org')
      .expect(204);
    expectRefused(
      await rename().set('X-Forwarded-Proto', 'https').set('X-Forwarded-Host', 'bi.example.org').set('Origin', 'http://bi.example.org'),
    );
    expectRefused(await rename().set('Host', 'bi.internal:8080').set('Origin', 'http://bi.internal:9090'));
  });

  it('passes the named SDK and interactive embedding origins while they are on, never one only `*` lets in', async () => {
    const rename = (origin: string) =>
      t.http().put('/api/setting/site-name').set('Cookie', cookie).set('Origin', origin).send({ value: 'Embedded' });
    expectRefused(await rename(APP));
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'enable-embedding-sdk': true, 'embedding-app-origins-sdk': `${APP} *` })
      .expect(204);
    try {
      await rename(APP).expect(204);
      expectRefused(await rename(EVIL));
      expectRefused(await rename('http://localhost:5173')); // the site is https: not development
      await t
        .http()
        .put('/api/setting')
        .set(auth(admin))
        .send({ 'enable-embedding-interactive': true, 'embedding-app-origins-interactive': 'https://portal.customer.test' })
        .expect(204);
      await rename('https://portal.customer.test').expect(204);
    } finally {
      await t
        .http()
        .put('/api/setting')
        .set(auth(admin))
        .send({ 'enable-embedding-sdk': false, 'enable-embedding-interactive': false })
        .expect(204);
    }
    expectRefused(await rename(APP));
  });

  it('refuses a login from another site, cookie or not, and a logout; logins from scripts and this site work', async () => {
    const credentials = { username: ADMIN.email, password: ADMIN.password };
    const refused = await t.http().post('/api/session').set('Origin', EVIL).send(credentials);
    expectRefused(refused);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expectRefused(await t.http().delete('/api/session').set('Cookie', cookie).set('Origin', EVIL));
    await t.http().get('/api/user/current').set('Cookie', cookie).expect(200);
    await t.http().post('/api/session').set('Origin', SITE).send(credentials).expect(200);
    await t.http().post('/api/session').send(credentials).expect(200);
  });

  it('keeps the form posts that are an interface: a download from this site; the same from another site is refused', async () => {
    const query = JSON.stringify({ database: w.db, type: 'native', native: { query: 'SELECT 7 AS n' } });
    const own = await t.http().post('/api/dataset/csv').set('Cookie', cookie).set('Origin', SITE).type('form').send({ query }).expect(200);
    expect(own.text.trim().split(/\r?\n/)).toEqual(['n', '7']);
    expectRefused(await t.http().post('/api/dataset/csv').set('Cookie', cookie).set('Origin', EVIL).type('form').send({ query }));
  });

  it("keeps SAML's assertion consumer taking the identity provider's cross-site form post, with a cookie along", async () => {
    const idp = await createIdp();
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({
        'saml-enabled': true,
        'saml-identity-provider-uri': idp.ssoUrl,
        'saml-identity-provider-certificate': idp.cert,
        'saml-identity-provider-issuer': idp.issuer,
        'saml-application-name': 'analytics-sp',
      })
      .expect(204);
    const start = await t.http().get('/auth/sso').query({ return_to: '/dashboard/3' }).expect(302);
    const request = readAuthnRequest(start.headers.location);
    const xml = signedResponse(idp, {
      inResponseTo: request.id,
      acsUrl: `${SITE}/auth/sso`,
      audience: 'analytics-sp',
      email: 'saml.user@example.com',
    });
    const res = await t
      .http()
      .post('/auth/sso')
      .set('Origin', new URL(idp.ssoUrl).origin)
      .set('Cookie', cookie)
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: '/dashboard/3' })
      .expect(302);
    expect(res.headers.location).toBe('/dashboard/3');
    expect(String(res.headers['set-cookie'])).toMatch(/metabase\.SESSION=/);
  });
});
