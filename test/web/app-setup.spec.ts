import Database from 'better-sqlite3';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

const ADMIN = { first: 'Ada', last: 'Admin', email: 'ada@example.com', password: 'Tr0ub4dor&3-horse' };

/**
 * First run, as a new admin would do it in the browser: from an empty data directory through setup (account, site
 * name, a database), then signing out and in again. One flow: each step starts where the one before ended.
 */
describeBrowser('the application: first-run setup and sign-in', () => {
  let app: AppServer;
  let page: Page;
  const api = (p: string, session?: string) =>
    app.t
      .http()
      .get(p)
      .set(session ? { 'X-Metabase-Session': session } : {});

  beforeAll(async () => {
    app = await startAppServer();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('/ leads a new server to setup; the password is checked as it is typed', async () => {
    page = await app.open('/');
    await page.getByRole('heading', { name: 'Step 1 of 3: Your account' }).waitFor();
    expect(pathOf(page)).toBe('/setup');
    await page.getByLabel('First name').fill(ADMIN.first);
    await page.getByLabel('Last name').fill(ADMIN.last);
    await page.getByLabel('Email address').fill(ADMIN.email);
    const password = page.getByLabel(/^Password/);
    await password.fill('abc');
    // The server's rule, at the field (password_check), while typing.
    const rule = 'password must be at least 6 characters long and include 1 number.';
    await page.getByText(rule).waitFor();
    expect(await fieldDescription(password)).toContain(rule);
    await reviewPage(page, 'setup-account');
    await password.fill(ADMIN.password);
    await page.getByText('Strong enough.').waitFor();
    expect(await fieldDescription(password)).toBe('Strong enough.');
    await page.getByLabel('Confirm your password').fill('something else');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('The passwords do not match.').waitFor();
    await page.getByLabel('Confirm your password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 2 of 3: Your organization' }).waitFor();
    // Nothing is sent before the last account step: setup is still pending.
    expect((await api('/api/session/properties').expect(200)).body['setup-token']).toEqual(expect.any(String));
  });

  it('the site name step creates the admin (POST /api/setup) and signs them in', async () => {
    await reviewPage(page, 'setup-site');
    await page.getByLabel('Company or team name').fill('Acme Analytics');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'Step 3 of 3: Add your data' }).waitFor();
    const props = (await api('/api/session/properties').expect(200)).body;
    expect(props['setup-token']).toBeUndefined();
    expect(props['site-name']).toBe('Acme Analytics');
    const me = await page.request.get(`${app.base}/api/user/current`);
    expect(me.status()).toBe(200);
    expect(await me.json()).toMatchObject({ email: ADMIN.email, first_name: 'Ada', last_name: 'Admin', is_superuser: true });
  });

  it("connecting a database shows the engine's error inline, then connects", async () => {
    await page.getByRole('radio', { name: 'Connect a database now' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('form', { name: 'Connect a database' }).waitFor();
    await reviewPage(page, 'setup-database');
    await page.getByRole('textbox', { name: 'Database type' }).click();
    await page.getByRole('option', { name: 'SQLite' }).click();
    await page.getByLabel('Display name').fill('Shop');
    await page.getByLabel('File').fill('missing.db');
    await page.getByRole('button', { name: 'Connect database' }).click();
    // The engine's message at the field it is about (the connection is tried first: POST /api/database/validate).
    const file = page.getByLabel('File');
    await page.getByText(/missing\.db does not exist\./).waitFor();
    expect(await fieldDescription(file)).toContain('missing.db does not exist.');
    await reviewPage(page, 'setup-database-error');

    const db = new Database(path.join(app.dataDir, 'shop.db'));
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO orders (total) VALUES (9.5), (20);');
    db.close();
    await page.getByLabel('File').fill('shop.db');
    await page.getByRole('button', { name: 'Connect database' }).click();
    await page.getByRole('heading', { name: 'You are all set' }).waitFor();
    const me = await page.request.get(`${app.base}/api/database`);
    const names = ((await me.json()) as { data: Array<{ name: string; engine: string }> }).data.map((d) => [d.name, d.engine]);
    expect(names).toEqual([['Shop', 'sqlite']]);
    await reviewPage(page, 'setup-done');
  });

  it('home shows the site name and the admin; /setup now leads home', async () => {
    await page.getByRole('button', { name: 'Take me to Acme Analytics' }).click();
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
    expect(pathOf(page)).toBe('/');
    expect(await page.getByRole('banner').getByRole('link', { name: 'Acme Analytics' }).count()).toBe(1);
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Our analytics' }).waitFor();
    await reviewPage(page, 'home-admin');
    await page.goto(`${app.base}/setup`);
    await page.getByRole('heading', { name: 'Welcome, Ada' }).waitFor();
    expect(pathOf(page)).toBe('/');
  });

  it('the user menu has the admin settings and signs out (DELETE /api/session)', async () => {
    await page.getByRole('button', { name: 'Account menu for Ada Admin' }).click();
    await page.getByRole('menuitem', { name: 'Admin settings' }).waitFor();
    await reviewPage(page, 'user-menu');
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(pathOf(page)).toBe('/auth/login');
    expect((await page.request.get(`${app.base}/api/user/current`)).status()).toBe(401);
    await reviewPage(page, 'login');
  });

  it('a wrong password is shown at the password field', async () => {
    await signIn(page, ADMIN.email, 'not-my-password-1');
    const password = page.getByLabel(/^Password/);
    await page.getByText('did not match stored password').waitFor();
    expect(await fieldDescription(password)).toBe('did not match stored password');
    await reviewPage(page, 'login-wrong-password');
    expect((await page.request.get(`${app.base}/api/user/current`)).status()).toBe(401);
  });

  it('signs in from the keyboard alone, and lands where ?redirect= says', async () => {
    await page.goto(`${app.base}/auth/login?redirect=${encodeURIComponent('/admin/people?q=a')}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    // The email field has the focus; Tab moves to the password, Enter submits.
    await page.waitForFunction(`document.activeElement && document.activeElement.getAttribute('type') === 'email'`);
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'People' }).waitFor();
    expect(pathOf(page)).toBe('/admin/people?q=a');
    const me = await page.request.get(`${app.base}/api/user/current`);
    expect((await me.json()).email).toBe(ADMIN.email);
  });
});
