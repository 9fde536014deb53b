import { randomBytes } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';
import { auth, setupAdmin } from '../support/factories';
import { createIdp, encode, readAuthnRequest, signedResponse, TestIdp } from '../support/saml-idp';

const SITE = 'https://analytics.example.test';
const APP = 'https://app.customer.test';
const APP_NAME = 'analytics-sp';
const SDK = { 'X-Metabase-Client': 'embedding-sdk-react' };

/**
 * SAML for the React SDK: its page asks /auth/sso for the identity provider's URL; when the assertion comes back, the
 * assertion consumer answers a page that posts the session to the SDK's page (targetOrigin its origin) and closes.
 */
describe('SAML popup hand-off to the embedding SDK', () => {
  let t: TestApp;
  let admin: string;
  let idp: TestIdp;
  const email = () => `popup-${randomBytes(4).toString('hex')}@example.com`;

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
        'embedding-app-origins-sdk': APP,
        'saml-enabled': true,
        'saml-identity-provider-uri': idp.ssoUrl,
        'saml-identity-provider-certificate': idp.cert,
        'saml-identity-provider-issuer': idp.issuer,
        'saml-application-name': APP_NAME,
      })
      .expect(204);
  });
  afterAll(() => t.close());

  /** The SDK's start from `origin`, the IdP's signed answer posted back; answers the ACS response. */
  async function popupLogin(origin: string, who = email()) {
    const start = await t.http().get('/auth/sso').set(SDK).set('Origin', origin).expect(200);
    expect(start.body).toEqual({ url: expect.stringMatching(/^https:\/\/idp\.example\.test\/sso\?SAMLRequest=/), method: 'saml' });
    const request = readAuthnRequest(start.body.url);
    const xml = signedResponse(idp, {
      inResponseTo: request.id,
      acsUrl: `${SITE}/auth/sso`,
      audience: APP_NAME,
      email: who,
      firstName: 'Pop',
      lastName: 'Up',
    });
    return t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: request.relayState ?? '' });
  }

  /** The message and target origin the page posts. */
  const posted = (html: string) =>
    JSON.parse(/var d=(\{.*?\});if/.exec(html)![1]) as { origin: string; message: { type: string; session: { id: string; exp: null } } };

  it('answers a page that posts a working session to the SDK page origin only', async () => {
    const who = email();
    const res = await popupLogin(APP, who);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    const d = posted(res.text);
    expect(d.origin).toBe(APP);
    expect(d.message).toEqual({ type: 'analytics-sdk:saml-session', session: { status: 'ok', id: expect.any(String), exp: null } });
    expect(res.text).toContain('window.opener.postMessage(d.message,d.origin)');
    const me = await t.http().get('/api/user/current').set(SDK).set(auth(d.message.session.id)).expect(200);
    expect(me.body.email).toBe(who);
  });

  it('works from the server own site; from localhost only in development, not with an https site', async () => {
    expect(posted((await popupLogin(SITE)).text).origin).toBe(SITE);
    // the site URL is https: localhost is no developer's page here
    await t.http().get('/auth/sso').set(SDK).set('Origin', 'http://localhost:5173').expect(403);
  });

  it('refuses an SDK page whose origin may not embed, before any SAML request', async () => {
    const res = await t.http().get('/auth/sso').set(SDK).set('Origin', 'https://evil.test').expect(403);
    expect(res.body.message ?? res.text).toContain('embedding-app-origins-sdk');
  });

  it('keeps the browser flow a redirect to its return path', async () => {
    const start = await t.http().get('/auth/sso').query({ return_to: '/dashboard/3' }).expect(302);
    const request = readAuthnRequest(start.headers.location);
    const xml = signedResponse(idp, { inResponseTo: request.id, acsUrl: `${SITE}/auth/sso`, audience: APP_NAME, email: email() });
    const res = await t
      .http()
      .post('/auth/sso')
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: '/dashboard/3' })
      .expect(302);
    expect(res.headers.location).toBe('/dashboard/3');
  });
});
