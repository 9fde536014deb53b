import type { Page } from 'playwright-core';
import { auth, makeUser, MadeUser, setupAdmin, ADMIN } from '../support/factories';
import { reviewPage } from './support/a11y';
import { describeBrowser, newPage } from './support/browser';
import { AppServer, chunksOf, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

/** Signed-in life in the application: a lost session, a non-admin at the admin console, SSO and throttling at sign-in. */
describeBrowser('the application: sessions and access', () => {
  let app: AppServer;
  let admin: string;
  let user: MadeUser;
  const http = () => app.t.http();

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    user = await makeUser(app.t, admin);
  });
  afterAll(async () => {
    await app?.close();
  });

  const signedIn = async (path: string, who: { email: string; password: string }): Promise<Page> => {
    const page = await app.open(path);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, who.email, who.password);
    return page;
  };

  it('the sign-in page loads the shell and its own chunk only', async () => {
    const page = await newPage(app.browser);
    const loaded: string[] = [];
    page.on('response', (r) => {
      const m = /\/app\/(assets\/[^/?]+\.js)$/.exec(r.url());
      if (m) loaded.push(m[1]);
    });
    await page.goto(`${app.base}/auth/login`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const allowed = chunksOf(['entry', 'src/app/auth/LoginPage.tsx']);
    expect(loaded.filter((f) => !allowed.has(f))).toEqual([]);
    const elsewhere = [...chunksOf(['src/app/shell/AppLayout.tsx', 'src/app/setup/SetupPage.tsx'])].filter((f) => !allowed.has(f));
    expect(elsewhere.length).toBeGreaterThan(0);
    expect(loaded.filter((f) => elsewhere.includes(f))).toEqual([]);
  });

  it('a lost session leads to sign-in, and back to the page the person was on', async () => {
    const page = await signedIn('/admin/people', ADMIN);
    await page.getByRole('heading', { name: 'People' }).waitFor();
    expect(pathOf(page)).toBe('/admin/people');
    await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Databases' }).click();
    await page.getByRole('heading', { name: 'Databases' }).waitFor();
    await reviewPage(page, 'admin-databases');

    // The session cookie is gone (expired, or cleared): the next call answers 401.
    await page.context().clearCookies();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(pathOf(page)).toBe('/auth/login?redirect=%2Fadmin%2Fdatabases');
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Databases' }).waitFor();
    expect(pathOf(page)).toBe('/admin/databases');
    expect((await page.request.get(`${app.base}/api/user/current`)).status()).toBe(200);
  });

  it('a session ended elsewhere (signed out in another tab) leads to sign-in too', async () => {
    const page = await signedIn('/account/profile', ADMIN);
    await page.getByRole('heading', { name: 'Account settings' }).waitFor();
    await reviewPage(page, 'account');
    // Another tab signs out: the server ends the session the cookie names.
    expect((await page.request.delete(`${app.base}/api/session`)).status()).toBe(204);
    await page.goto(`${app.base}/collection/root`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(pathOf(page)).toBe('/auth/login?redirect=%2Fcollection%2Froot');
  });

  it('a non-admin sees no admin links and gets the permission page at /admin; the API refuses them too', async () => {
    const page = await signedIn('/', user);
    await page.getByRole('heading', { name: 'Welcome, Uma' }).waitFor();
    await page.getByRole('button', { name: 'Account menu for Uma User' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Admin settings' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add a database' }).count()).toBe(0);
    await reviewPage(page, 'home-user-menu');
    await page.keyboard.press('Escape');

    for (const path of ['/admin', '/admin/people']) {
      await page.goto(`${app.base}${path}`);
      await page.getByRole('heading', { name: "You don't have permission to see this page" }).waitFor();
      expect(pathOf(page)).toBe(path);
    }
    expect(await page.getByRole('navigation', { name: 'Admin' }).count()).toBe(0);
    await reviewPage(page, 'admin-no-permission');
    expect((await page.request.get(`${app.base}/api/user`)).status()).toBe(403);
  });

  it('offers "Sign in with SSO" once JWT is on and configured, coming back to ?redirect=', async () => {
    const page = await app.open('/auth/login?redirect=%2Fcollection%2Froot');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Sign in with SSO' }).count()).toBe(0);
    await http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'jwt-identity-provider-uri': 'https://idp.example.com/login', 'jwt-shared-secret': 'a'.repeat(64), 'jwt-enabled': true })
      .expect(204);
    expect((await http().get('/api/session/properties').expect(200)).body['other-sso-enabled?']).toBe(true);
    await page.reload();
    const sso = page.getByRole('link', { name: 'Sign in with SSO' });
    await sso.waitFor();
    expect(await sso.getAttribute('href')).toBe('/auth/sso?return_to=%2Fcollection%2Froot');
    await reviewPage(page, 'login-sso');
    // /auth/sso is the server's: it sends the browser to the identity provider with where to come back to.
    const res = await http().get('/auth/sso?return_to=%2Fcollection%2Froot').redirects(0);
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/idp\.example\.com\/login\?return_to=/);
  });

  it("the server's login throttling is shown at the email field", async () => {
    const victim = 'someone@example.com';
    for (let i = 0; i < 10; i++) await http().post('/api/session').send({ username: victim, password: 'wrong-1' }).expect(401);
    const page = await app.open('/auth/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, victim, 'wrong-1');
    const message = page.getByText(/^Too many attempts! You must wait \d+ seconds before trying again\.$/);
    await message.waitFor();
    expect(await fieldDescription(page.getByLabel('Email address'))).toMatch(/^Too many attempts!/);
  });
});
