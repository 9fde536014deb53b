import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, setupAdmin } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse, TestIdp } from '../support/saml-idp';

const SITE = 'https://analytics.example.test';
const ACS = `${SITE}/auth/sso`;
const APP_NAME = 'analytics-sp';

/** SAML sign-in into tenants: the `saml-attribute-tenant` attribute places the user as JWT's `@tenant` claim does. */
describe('tenants through SAML', () => {
  let t: TestApp;
  let admin: string;
  let idp: TestIdp;
  const email = () => `saml-tenant-${randomBytes(4).toString('hex')}@example.com`;

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
        'saml-enabled': true,
        'saml-identity-provider-uri': idp.ssoUrl,
        'saml-identity-provider-certificate': idp.cert,
        'saml-identity-provider-issuer': idp.issuer,
        'saml-application-name': APP_NAME,
        'use-tenants': true,
      })
      .expect(204);
  });
  afterAll(() => t.close());

  /** A full round trip: AuthnRequest, then the IdP's signed answer with these attributes POSTed back. */
  async function signIn(address: string, extra: Record<string, string>) {
    const start = await t.http().get('/auth/sso').query({ return_to: '/' }).expect(302);
    const req = readAuthnRequest(start.headers.location);
    const xml = signedResponse(idp, { inResponseTo: req.id, acsUrl: ACS, audience: APP_NAME, email: address, extra });
    return t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: '/' });
  }
  const session = (res: { headers: Record<string, unknown> }) =>
    ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('metabase.SESSION='))!.split(';')[0];

  it('puts the user in the tenant the attribute names (made on first use), without keeping it as an attribute', async () => {
    const address = email();
    const res = await signIn(address, { '@tenant': 'acme', region: 'EU' });
    expect(res.status).toBe(302);
    const me = (await t.http().get('/api/user/current').set('Cookie', session(res)).expect(200)).body;
    const tenants = (await t.http().get('/api/ee/tenant').set(auth(admin)).expect(200)).body.data;
    expect(tenants).toEqual([expect.objectContaining({ slug: 'acme', name: 'acme', member_count: 1 })]);
    expect(me.tenant_id).toBe(tenants[0].id);
    expect(me.jwt_attributes).toEqual({ region: 'EU' });
    expect(me.structured_attributes['@tenant.slug']).toEqual({ source: 'system', frozen: true, value: 'acme' });

    const mismatch = await signIn(address, { '@tenant': 'globex' });
    expect([mismatch.status, mismatch.body]).toEqual([403, { message: 'Tenant ID mismatch with existing user' }]);
  });
});
