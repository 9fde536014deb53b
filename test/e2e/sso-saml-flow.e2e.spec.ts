import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, makeUser, setupAdmin } from '../support/factories';
import {
  assertionXml,
  createIdp,
  encode,
  readAuthnRequest,
  ResponseOptions,
  responseXml,
  sign,
  signedResponse,
  TestIdp,
} from '../support/saml-idp';
import { until } from '../support/until';

const SITE = 'https://analytics.example.test';
const ACS = `${SITE}/auth/sso`;
const APP_NAME = 'analytics-sp';
const REFUSED = 'Unable to log in: SAML response validation failed';

/**
 * SAML sign-in end to end through the real routes: GET /auth/sso to the identity provider made in the test, its
 * signed response POSTed back to /auth/sso, users provisioned and groups synced; every attack refused with 401 and
 * the fixed message, on the instance that sent the request and on a second one sharing the app DB.
 */
describe('SAML sign-in through /auth/sso', () => {
  let t: TestApp;
  let t2: TestApp;
  let admin: string;
  let idp: TestIdp;
  let otherIdp: TestIdp;
  const email = () => `saml-${randomBytes(4).toString('hex')}@example.com`;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);

  beforeAll(async () => {
    [idp, otherIdp] = await Promise.all([createIdp(), createIdp('https://other-idp.example.test')]);
    t = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' });
    t2 = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' }, t);
    admin = await setupAdmin(t);
    await settings({
      'site-url': SITE,
      'saml-enabled': true,
      'saml-identity-provider-uri': idp.ssoUrl,
      'saml-identity-provider-certificate': idp.cert,
      'saml-identity-provider-issuer': idp.issuer,
      'saml-application-name': APP_NAME,
    });
  });
  afterAll(async () => {
    await t2?.app.close();
    await t?.close();
  });

  async function start(on: TestApp = t, returnTo = '/dashboard/1') {
    const res = await on.http().get('/auth/sso').query({ return_to: returnTo }).expect(302);
    return readAuthnRequest(res.headers.location);
  }
  const opts = (inResponseTo: string, extra: Partial<ResponseOptions> = {}): ResponseOptions => ({
    inResponseTo,
    acsUrl: ACS,
    audience: APP_NAME,
    email: email(),
    firstName: 'Sam',
    lastName: 'Ell',
    ...extra,
  });
  const post = (on: TestApp, xml: string, relayState = '/dashboard/1') =>
    on
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: relayState });
  const sessionOf = (res: { headers: Record<string, unknown> }) =>
    ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('metabase.SESSION='))?.split(';')[0];

  async function expectRefused(on: TestApp, xml: string) {
    const res = await post(on, xml);
    expect(res.status).toBe(401);
    expect(res.text).toBe(REFUSED);
    expect(sessionOf(res)).toBeUndefined();
  }

  it('serves the SP metadata without a session', async () => {
    const res = await t.http().get('/api/saml/metadata').expect(200);
    expect(res.text).toContain(`entityID="${APP_NAME}"`);
    expect(res.text).toContain(`Location="${ACS}"`);
  });

  it('refuses a certificate or a private key that does not parse', async () => {
    const cert = await t
      .http()
      .put('/api/setting/saml-identity-provider-certificate')
      .set(auth(admin))
      .send({ value: 'not a certificate' });
    expect(cert.status).toBe(400);
    expect(JSON.stringify(cert.body)).toContain('X.509 certificate');
    const key = await t
      .http()
      .put('/api/setting/saml-sp-private-key')
      .set(auth(admin))
      .send({ value: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----' });
    expect(key.status).toBe(400);
    // the certificate without its PEM armour, as identity providers often show it, is fine
    const bare = idp.cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    await t.http().put('/api/setting/saml-identity-provider-certificate').set(auth(admin)).send({ value: bare }).expect(204);
    const req = await start();
    expect((await post(t, signedResponse(idp, opts(req.id)))).status).toBe(302);
  });

  // Extra attributes are the provider's (jwt_attributes), apart from the admin's login_attributes (COMPAT.md, "User attributes").
  it('signs a new user in, keeps extra attributes as provider attributes, and finds them again by email in any case', async () => {
    const req = await start(t, '/collection/4');
    const address = email();
    const res = await post(t, signedResponse(idp, opts(req.id, { email: address, extra: { tenant: 'acme' } })), '/collection/4');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/collection/4');
    const me = await t
      .http()
      .get('/api/user/current')
      .set('Cookie', sessionOf(res) as string)
      .expect(200);
    expect(me.body).toMatchObject({ email: address, first_name: 'Sam', last_name: 'Ell', is_superuser: false });
    expect(me.body.jwt_attributes).toMatchObject({ tenant: 'acme' });
    expect(me.body.login_attributes).toBeNull();

    const again = await start(t2);
    const res2 = await post(t2, signedResponse(idp, opts(again.id, { email: address.toUpperCase(), firstName: 'Samuel' })));
    expect(res2.status).toBe(302);
    // Read where the sign-in happened: on SQLite (one instance in production) the other instance learns of the
    // new name only when its copy of the user expires; cluster-events.e2e covers that on Postgres.
    const me2 = await t2
      .http()
      .get('/api/user/current')
      .set('Cookie', sessionOf(res2) as string)
      .expect(200);
    expect(me2.body).toMatchObject({ id: me.body.id, first_name: 'Samuel' });
  });

  it('syncs mapped groups only, and never grants admin unless mapped', async () => {
    const groupId = (
      await t
        .http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `Sales ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id;
    await settings({ 'saml-group-sync': true, 'saml-group-mappings': { sales: [groupId] } });
    try {
      const req = await start();
      const res = await post(t, signedResponse(idp, opts(req.id, { groups: ['sales', 'Administrators', 'admin'] })));
      expect(res.status).toBe(302);
      const me = await t
        .http()
        .get('/api/user/current')
        .set('Cookie', sessionOf(res) as string)
        .expect(200);
      expect(me.body.is_superuser).toBe(false);
      expect(me.body.user_group_memberships.map((m: { id: number }) => m.id).sort()).toEqual([1, groupId].sort());
    } finally {
      await settings({ 'saml-group-sync': false, 'saml-group-mappings': {} });
    }
  });

  it('refuses a new user while provisioning is off, and still signs in an existing one', async () => {
    const existing = await makeUser(t, admin);
    await settings({ 'saml-user-provisioning-enabled?': false });
    try {
      const req = await start();
      const res = await post(t, signedResponse(idp, opts(req.id)));
      expect(res.status).toBe(401);
      expect(sessionOf(res)).toBeUndefined();
      const req2 = await start();
      expect((await post(t, signedResponse(idp, opts(req2.id, { email: existing.email })))).status).toBe(302);
    } finally {
      await settings({ 'saml-user-provisioning-enabled?': true });
    }
  });

  it('refuses an unsigned response', async () => {
    await expectRefused(t, signedResponse(idp, opts((await start()).id), 'none'));
  });

  it('refuses XML signature wrapping', async () => {
    const id = (await start()).id;
    const genuine = sign(assertionXml(idp, opts(id, { email: 'mallory@example.com' })), 'Assertion', idp.key, idp.cert);
    const evil = assertionXml(idp, opts(id, { email: 'admin@example.com' }));
    await expectRefused(
      t,
      responseXml(idp, opts(id), evil).replace('<samlp:Status>', `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`),
    );
  });

  it('refuses a comment inside the NameID and the email', async () => {
    const id = (await start()).id;
    const xml = signedResponse(idp, opts(id, { email: 'user@evil.com.example.com' })).replaceAll(
      'user@evil.com.example.com',
      'user@evil.com<!---->.example.com',
    );
    await expectRefused(t, xml);
  });

  it('refuses an expired assertion, a wrong audience, another issuer, and another IdP key', async () => {
    await expectRefused(t, signedResponse(idp, opts((await start()).id, { issuedAt: new Date(Date.now() - 20 * 60_000) })));
    await expectRefused(t, signedResponse(idp, opts((await start()).id, { audience: 'another-app' })));
    await expectRefused(t, signedResponse(idp, opts((await start()).id, { issuer: 'https://not-the-idp.example.test' })));
    await expectRefused(t, signedResponse(otherIdp, opts((await start()).id, { issuer: idp.issuer })));
  });

  it('refuses XML entities', async () => {
    const xml = signedResponse(idp, opts((await start()).id));
    await expectRefused(t, `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]>${xml}`);
  });

  it('refuses a replayed response on the same instance and on another one', async () => {
    const xml = signedResponse(idp, opts((await start()).id));
    expect((await post(t, xml)).status).toBe(302);
    await expectRefused(t, xml);
    await expectRefused(t2, xml);
  });

  it('accepts either certificate during a key rollover (both set)', async () => {
    await settings({ 'saml-identity-provider-certificate': `${idp.cert}\n${otherIdp.cert}` });
    try {
      expect((await post(t, signedResponse(otherIdp, opts((await start()).id, { issuer: idp.issuer })))).status).toBe(302);
      expect((await post(t, signedResponse(idp, opts((await start()).id)))).status).toBe(302);
    } finally {
      await settings({ 'saml-identity-provider-certificate': idp.cert });
    }
  });

  it('takes a new IdP certificate set on one instance on the other without a restart', async () => {
    await settings({ 'saml-identity-provider-certificate': otherIdp.cert, 'saml-identity-provider-issuer': otherIdp.issuer });
    try {
      await until(async () => (await post(t2, signedResponse(otherIdp, opts((await start(t2)).id)))).status === 302);
      await expectRefused(t2, signedResponse(idp, opts((await start(t2)).id)));
    } finally {
      await settings({ 'saml-identity-provider-certificate': idp.cert, 'saml-identity-provider-issuer': idp.issuer });
    }
  });
});
