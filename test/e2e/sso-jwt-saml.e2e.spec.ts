import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, setupAdmin } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse, TestIdp } from '../support/saml-idp';

const SITE = 'https://analytics.example.test';
const JWT_IDP = 'https://jwt-idp.example.com/sso';
const APP_NAME = 'analytics-sp';
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react' };

/** /auth/sso with both methods on: which one answers, and a SAML sign-in through the same route. */
describe('SSO method choice on /auth/sso', () => {
  let t: TestApp;
  let admin: string;
  let idp: TestIdp;
  const secret = randomBytes(32).toString('hex');
  const sign = (claims: Record<string, unknown>) => jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: 600 });
  const email = () => `both-${randomBytes(4).toString('hex')}@example.com`;

  beforeAll(async () => {
    idp = await createIdp();
    t = await startTestApp();
    admin = await setupAdmin(t);
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({
        'site-url': SITE,
        'enable-embedding-sdk': true,
        'jwt-enabled': true,
        'jwt-identity-provider-uri': JWT_IDP,
        'jwt-shared-secret': secret,
        'saml-enabled': true,
        'saml-identity-provider-uri': idp.ssoUrl,
        'saml-identity-provider-certificate': idp.cert,
        'saml-identity-provider-issuer': idp.issuer,
        'saml-application-name': APP_NAME,
      })
      .expect(204);
  });
  afterAll(() => t.close());

  it('defaults to SAML when both are on; preferred_method=jwt picks JWT', async () => {
    const saml = await t.http().get('/auth/sso').query({ return_to: '/dashboard/1' }).expect(302);
    expect(saml.headers.location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(readAuthnRequest(saml.headers.location).relayState).toBe('/dashboard/1');
    const sdkSaml = await t.http().get('/auth/sso').set(SDK).expect(200);
    expect(sdkSaml.body).toEqual({ url: expect.stringMatching(/^https:\/\/idp\.example\.test\/sso\?SAMLRequest=/), method: 'saml' });
    const viaJwt = await t.http().get('/auth/sso').query({ preferred_method: 'jwt', return_to: '/q/1' }).expect(302);
    expect(viaJwt.headers.location).toBe(`${JWT_IDP}?return_to=%2Fq%2F1`);
    expect((await t.http().get('/auth/sso').set(SDK).query({ preferred_method: 'jwt' }).expect(200)).body).toEqual({
      url: JWT_IDP,
      method: 'jwt',
    });
  });

  it('a JWT that comes along is exchanged even though SAML is the default', async () => {
    const res = await t
      .http()
      .get('/auth/sso')
      .set(SDK)
      .query({ jwt: sign({ email: email() }) })
      .expect(200);
    expect(res.body.status).toBe('ok');
    await t.http().get('/api/user/current').set(auth(res.body.id)).expect(200);
  });

  it('signs a SAML user in through POST /auth/sso: provisioned, groups synced by mappings, cookie, redirect to RelayState', async () => {
    const groupId = (
      await t
        .http()
        .post('/api/permissions/group')
        .set(auth(admin))
        .send({ name: `Analysts ${randomBytes(3).toString('hex')}` })
        .expect(200)
    ).body.id;
    await t
      .http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'saml-group-sync': true, 'saml-group-mappings': { analysts: [groupId] } })
      .expect(204);
    const start = await t.http().get('/auth/sso').query({ return_to: '/dashboard/7' }).expect(302);
    const request = readAuthnRequest(start.headers.location);
    const address = email();
    const xml = signedResponse(idp, {
      inResponseTo: request.id,
      acsUrl: `${SITE}/auth/sso`,
      audience: APP_NAME,
      email: address,
      firstName: 'Sam',
      lastName: 'Ell',
      groups: ['analysts'],
    });
    const res = await t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: request.relayState ?? '' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/dashboard/7');
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('metabase.SESSION='))!;
    const me = await t.http().get('/api/user/current').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(me.body).toMatchObject({ email: address, first_name: 'Sam', last_name: 'Ell', is_superuser: false });
    expect(me.body.user_group_memberships.map((m: { id: number }) => m.id).sort()).toEqual([1, groupId].sort());
    // the same response again is a replay
    const replay = await t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: '/dashboard/7' });
    expect(replay.status).toBe(401);
    // a JWT in a form post is not exchanged (any site could post one); SAML is then what /auth/sso offers
    const formJwt = await t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ jwt: sign({ email: email() }) });
    expect(formJwt.headers['set-cookie']).toBeUndefined();
    expect(formJwt.status).toBe(302);
    expect(formJwt.headers.location.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    // and a SAML user cannot log in with a password either
    await t.http().post('/api/session').send({ username: address, password: 'Any-password-1' }).expect(401);
  });
});
