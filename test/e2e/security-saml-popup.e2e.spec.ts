import { randomBytes } from 'node:crypto';
import { SDK_ORIGIN_REFUSED } from '../../src/modules/sso/saml/sdk-popup';
import { auth, setupAdmin } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse, type TestIdp } from '../support/saml-idp';
import { startTestApp, type TestApp } from '../support/test-app';

const APP = 'https://app.customer.test';
const APP_NAME = 'analytics-sp';
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react' };

/**
 * The SAML popup's last page posts a session to the SDK page that started the login. A session is a credential, so
 * the page must be one CORS trusts with credentials: named in the SDK origins (not merely let in by `*`), localhost
 * only in development, and still trusted when the session is handed over.
 */
describe('SAML popup: whom the session is handed to', () => {
  let t: TestApp;
  let admin: string;
  let idp: TestIdp;
  const settings = (values: Record<string, unknown>) => t.http().put('/api/setting').set(auth(admin)).send(values).expect(204);
  const start = (origin: string) => t.http().get('/auth/sso').set(SDK).set('Origin', origin);
  const consume = (url: string, site: string) => {
    const request = readAuthnRequest(url);
    const xml = signedResponse(idp, {
      inResponseTo: request.id,
      acsUrl: `${site}/auth/sso`,
      audience: APP_NAME,
      email: `pop-${randomBytes(4).toString('hex')}@example.com`,
    });
    return t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: request.relayState ?? '' });
  };

  beforeAll(async () => {
    idp = await createIdp();
    t = await startTestApp();
    admin = await setupAdmin(t);
    await settings({
      'site-url': 'https://analytics.example.test',
      'enable-embedding-sdk': true,
      'embedding-app-origins-sdk': `${APP} *`,
      'saml-enabled': true,
      'saml-identity-provider-uri': idp.ssoUrl,
      'saml-identity-provider-certificate': idp.cert,
      'saml-identity-provider-issuer': idp.issuer,
      'saml-application-name': APP_NAME,
    });
  });
  afterAll(() => t.close());

  it('refuses a page that only `*` lets in, and localhost while the site is https', async () => {
    for (const origin of ['https://evil.example', 'http://localhost:5173', 'http://127.0.0.1:3000']) {
      const res = await start(origin).expect(403);
      expect(res.body.message).toBe(SDK_ORIGIN_REFUSED);
    }
    await start(APP).expect(200);
  });

  it('hands localhost a session in development only (an http site URL)', async () => {
    await settings({ 'site-url': 'http://analytics.internal' });
    try {
      const begun = await start('http://localhost:5173').expect(200);
      const page = await consume(begun.body.url, 'http://analytics.internal').expect(200);
      expect(page.text).toContain('"origin":"http://localhost:5173"');
    } finally {
      await settings({ 'site-url': 'https://analytics.example.test' });
    }
  });

  it('refuses to hand the session over when the page lost its trust since the login started', async () => {
    const begun = await start(APP).expect(200);
    await settings({ 'embedding-app-origins-sdk': '*' });
    try {
      const res = await consume(begun.body.url, 'https://analytics.example.test').expect(403);
      expect(res.body.message).toBe(SDK_ORIGIN_REFUSED);
      expect(res.text).not.toContain('postMessage');
      expect(res.headers['set-cookie']).toBeUndefined();
    } finally {
      await settings({ 'embedding-app-origins-sdk': `${APP} *` });
    }
  });
});
