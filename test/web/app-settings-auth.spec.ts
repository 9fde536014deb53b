import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { createCustomerBackend, DEMO_USERS } from '../../examples/customer-backend/app';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

/**
 * Admin > Settings > General and Authentication as an admin walks them: the site's name and address, password rules,
 * then JWT sign-in turned on through its screen (a key generated there, given to the reference customer backend) and
 * used by a new person, and the SAML screen's values for the identity provider. One flow on one server.
 */
describeBrowser('the admin console: general and authentication settings', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let backend: Server;
  let backendUrl: string;
  /** The customer backend's app, made once the JWT key exists (the screen generates it). */
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const setting = async (key: string) => (await app.t.http().get(`/api/setting/${key}`).set(auth(admin)).expect(200)).body;

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    backend = createServer((req, res) => handler(req, res));
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    page = await app.open('/auth/login?redirect=%2Fadmin%2Fsettings');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    if (backend) await new Promise((resolve) => backend.close(resolve));
    await app?.close();
  });

  it('general: checks the site URL as it is typed, marks unsaved changes, saves only on Save', async () => {
    await page.getByRole('heading', { name: 'General settings' }).waitFor();
    expect(pathOf(page)).toBe('/admin/settings/general');
    const name = page.getByLabel('Site name');
    await name.waitFor();
    expect(await name.inputValue()).toBe('Test Co');
    const status = page.getByRole('form', { name: 'General settings' }).getByRole('status');
    expect(await status.textContent()).toBe('');
    const url = page.getByLabel('Site URL');
    await url.fill('analytics.example.com');
    await page.getByText('value must be an http:// or https:// URL.').waitFor();
    expect(await fieldDescription(url)).toContain('value must be an http:// or https:// URL.');
    expect(await status.textContent()).toBe('You have unsaved changes.');
    await reviewPage(page, 'admin-settings-general-error');
    await url.fill(app.base);
    await name.fill('Acme Analytics');
    await page.getByLabel('Email address for help requests').fill('help@acme.test');
    expect(await setting('site-name')).toBe('Test Co'); // nothing sent before Save
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    await until(async () => (await status.textContent()) === '');
    expect(await setting('site-name')).toBe('Acme Analytics');
    expect(await setting('site-url')).toBe(app.base);
    expect(await setting('admin-email')).toBe('help@acme.test');
    await reviewPage(page, 'admin-settings-general');
  });

  it('authentication: password strength and the sign-in methods, with the JWT switch refused until it is configured', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Authentication' }).click();
    await page.getByRole('heading', { name: 'Authentication', level: 1 }).waitFor();
    await page.getByRole('radio', { name: 'Strong' }).check();
    await page.getByRole('form', { name: 'Password settings' }).getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('password-complexity')).toBe('strong');
    await reviewPage(page, 'admin-settings-authentication');

    await page.getByRole('link', { name: 'Set up JWT' }).click();
    await page.getByRole('heading', { name: 'JWT', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/settings/authentication/jwt');
    const enable = page.getByRole('switch', { name: 'Sign in with JWT' });
    await enable.check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    // The server's refusal, beside the switch it is about.
    const refusal = 'JWT sign-in cannot be turned on before `jwt-identity-provider-uri` and `jwt-shared-secret` are set.';
    await page.getByText(refusal).waitFor();
    expect(await fieldDescription(enable)).toContain(refusal);
    expect(await setting('jwt-enabled')).toBe(false);
    await reviewPage(page, 'admin-settings-jwt-refused');
  });

  it('JWT: a key generated on the screen, the identity provider URI and a group mapping, then enabled', async () => {
    const sales = (await app.t.http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Sales' }).expect(200)).body.id;
    await page.getByLabel('JWT Identity Provider URI').fill(`${backendUrl}/sso/analytics`);
    await page.getByRole('button', { name: 'Generate key' }).click();
    const secret = page.getByLabel('Shared secret', { exact: true });
    // Shown (revealed) once generated, and masked again with Hide.
    await until(async () => /^[0-9a-f]{64}$/.test(await secret.inputValue()));
    expect(await secret.getAttribute('type')).toBe('text');
    const key = await secret.inputValue();
    await page.getByRole('button', { name: 'Hide Shared secret' }).click();
    expect(await secret.getAttribute('type')).toBe('password');

    await page.getByRole('switch', { name: 'Synchronize group memberships' }).check();
    await page.getByLabel('New mapping: JWT group name').fill('sales');
    await page.getByRole('button', { name: 'Add mapping' }).click();
    await page.getByRole('textbox', { name: 'Groups for sales' }).click();
    await page.getByRole('option', { name: 'Sales' }).click();
    await page.keyboard.press('Escape');
    await reviewPage(page, 'admin-settings-jwt');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();

    expect(await setting('jwt-enabled')).toBe(true);
    expect(await setting('jwt-identity-provider-uri')).toBe(`${backendUrl}/sso/analytics`);
    expect(await setting('jwt-group-sync')).toBe(true);
    expect(await setting('jwt-group-mappings')).toEqual({ sales: [sales] });
    expect(await setting('jwt-shared-secret')).toBe(`**********${key.slice(-2)}`);
    handler = createCustomerBackend({ analyticsUrl: app.base, jwtSharedSecret: key }) as unknown as RequestListener;

    // A stored secret is never shown again: after a reload the field holds its masked form.
    await page.reload();
    await page.getByRole('heading', { name: 'JWT', level: 1 }).waitFor();
    const stored = page.getByLabel('Shared secret', { exact: true });
    await until(async () => (await stored.inputValue()) === `**********${key.slice(-2)}`);
    expect(await page.getByText(/^A key is set\./).count()).toBe(1);
  });

  it('a new person signs in through the customer backend and /auth/sso, and is in the mapped group', async () => {
    const rene = DEMO_USERS[0];
    const visitor = await app.open('/auth/login');
    await visitor.getByRole('link', { name: 'Sign in with SSO' }).waitFor();
    // Signed in to the customer's application, the browser is sent through its JWT endpoint to /auth/sso?jwt=...
    const login = await visitor.request.post(`${backendUrl}/login`, { data: { email: rene.email, password: rene.password } });
    expect(login.status()).toBe(200);
    await visitor.goto(`${backendUrl}/sso/analytics`);
    await visitor.getByRole('heading', { name: `Welcome, ${rene.firstName}` }).waitFor();
    expect(pathOf(visitor)).toBe('/');
    const me = await (await visitor.request.get(`${app.base}/api/user/current`)).json();
    expect(me).toMatchObject({ email: rene.email, first_name: rene.firstName, last_name: rene.lastName, is_superuser: false });
    const users = (await app.t.http().get('/api/user').set(auth(admin)).expect(200)).body.data as Array<{ email: string; id: number }>;
    expect(users.map((u) => u.email)).toContain(rene.email);
    const groups = (await app.t.http().get('/api/permissions/group').set(auth(admin)).expect(200)).body as Array<{
      id: number;
      name: string;
    }>;
    const sales = groups.find((g) => g.name === 'Sales')!;
    const members = (await app.t.http().get(`/api/permissions/group/${sales.id}`).set(auth(admin)).expect(200)).body.members;
    expect(members.map((m: { email: string }) => m.email)).toEqual([rene.email]);
  });

  it("SAML: the values to give the identity provider, and the server's refusals at their fields", async () => {
    await page.goto(`${app.base}/admin/settings/authentication/saml`);
    await page.getByRole('heading', { name: 'SAML', level: 1 }).waitFor();
    const acs = page.getByRole('textbox', { name: 'Single sign-on URL (ACS URL)' });
    await acs.waitFor();
    expect(await acs.inputValue()).toBe(`${app.base}/auth/sso`);
    expect(await page.getByRole('textbox', { name: 'Entity ID', exact: true }).inputValue()).toBe('Analytics');
    await page.getByRole('button', { name: 'Copy Single sign-on URL (ACS URL)' }).waitFor();
    await page.getByLabel('Application name (entity ID, audience)').fill('acme-analytics');
    expect(await page.getByRole('textbox', { name: 'Entity ID', exact: true }).inputValue()).toBe('acme-analytics');

    const cert = page.getByLabel('SAML identity provider certificate');
    await cert.fill('not a certificate');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const why = 'value must be an X.509 certificate (PEM, or its base64 body).';
    await page.getByText(why).waitFor();
    expect(await fieldDescription(cert)).toContain(why);
    await reviewPage(page, 'admin-settings-saml');
    await cert.fill('');
    await page.getByRole('switch', { name: 'Sign in with SAML' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(/^SAML sign-in cannot be turned on before/).waitFor();
    expect(await setting('saml-enabled')).toBe(false);
    expect(await setting('saml-application-name')).toBe('Analytics');
  });
});
