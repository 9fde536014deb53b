import type { Page } from 'playwright-core';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { availableEngines } from '../support/warehouses';
import { reviewPage } from './support/a11y';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface DatabaseRow {
  id: number;
  name: string;
  engine: string;
  details: Record<string, unknown>;
  metadata_sync_interval_minutes: number;
}

/**
 * Admin > Databases as an admin uses it: a Postgres database added through the form (a throwaway database on the
 * local server), the engine's refusal shown at the field it is about, its tables after sync, the schedules, a sync
 * by hand, and removal after typing its name. One flow: each step starts where the one before ended.
 */
describeBrowser('the admin console: databases', () => {
  const postgres = availableEngines(['postgres']).length > 0;
  let app: AppServer;
  let admin: string;
  let page: Page;
  let wh: E2eWarehouse;
  let dbId: number;
  const databases = async (): Promise<DatabaseRow[]> =>
    (await app.t.http().get('/api/database').set(auth(admin)).expect(200)).body.data as DatabaseRow[];
  const form = () => page.getByRole('form', { name: 'Add a database' });

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    if (postgres) {
      wh = await e2eWarehouse('postgres', app.dataDir, {
        statements: [
          'CREATE TABLE customers (id SERIAL PRIMARY KEY, name TEXT NOT NULL)',
          'CREATE TABLE orders (id SERIAL PRIMARY KEY, customer_id INTEGER REFERENCES customers (id), total NUMERIC(10, 2))',
          "INSERT INTO customers (name) VALUES ('Ann'), ('Bo')",
          'INSERT INTO orders (customer_id, total) VALUES (1, 9.5), (2, 20)',
        ],
      });
    }
  });
  afterAll(async () => {
    await app?.close();
    await wh?.drop();
  });

  it('the list is empty at first and leads to the form', async () => {
    page = await app.open('/admin/databases');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Databases' }).waitFor();
    await page.getByText('No database is connected yet.').waitFor();
    await reviewPage(page, 'admin-databases-empty');
    await page.getByRole('link', { name: 'Add database' }).click();
    await form().waitFor();
    expect(pathOf(page)).toBe('/admin/databases/create');
    // PostgreSQL is the default engine: its fields, with the default port.
    expect(await page.getByLabel('Port').inputValue()).toBe('5432');
    await reviewPage(page, 'admin-database-new');
  });

  it("a host that does not resolve: the engine's message at the Host field, from Test connection and from Save", async () => {
    await page.getByLabel('Display name').fill('Shop');
    await page.getByLabel('Host').fill('no-such-host.invalid');
    await page.getByLabel('Database name').fill('shop');
    await page.getByLabel('Username').fill('postgres');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const host = page.getByLabel('Host');
    const message = 'Could not connect to host no-such-host.invalid:5432: unknown host.';
    await page.getByText(message).waitFor();
    expect(await fieldDescription(host)).toContain(message);
    expect(await host.getAttribute('aria-invalid')).toBe('true');
    await reviewPage(page, 'admin-database-bad-host');

    await page.getByLabel('Host').fill('no-such-host-2.invalid');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Could not connect to host no-such-host-2.invalid:5432: unknown host.').waitFor();
    expect(await fieldDescription(host)).toContain('no-such-host-2.invalid');
    expect(pathOf(page)).toBe('/admin/databases/create');
    expect(await databases()).toEqual([]);
  });

  it('a required field left empty is refused at the field, before anything is sent', async () => {
    await page.getByLabel('Database name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Enter the database name.').waitFor();
    expect(await fieldDescription(page.getByLabel('Database name'))).toBe('Enter the database name.');
  });

  it('adds the Postgres database and shows its tables once synced', async () => {
    if (!postgres) return console.warn('SKIPPED: no Postgres at 127.0.0.1:5432');
    await page.getByLabel('Host').fill(String(wh.details.host));
    await page.getByLabel('Port').fill(String(wh.details.port));
    await page.getByLabel('Database name').fill(String(wh.details.dbname));
    await page.getByLabel('Username').fill(String(wh.details.user));
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    expect(pathOf(page)).toMatch(/^\/admin\/databases\/\d+$/);
    dbId = Number(pathOf(page).split('/').pop());

    // The first sync runs in the background; the page asks again until the tables are there.
    const tables = page.getByRole('list', { name: 'Tables' });
    await tables.getByRole('link', { name: 'Orders' }).waitFor({ timeout: 60_000 });
    expect(await tables.getByRole('link').allTextContents()).toEqual(['public.Customers', 'public.Orders']);
    await page.getByText('Synced', { exact: true }).waitFor();
    await reviewPage(page, 'admin-database-edit');

    const [saved] = await databases();
    expect(saved).toMatchObject({ id: dbId, name: 'Shop', engine: 'postgres' });
    expect(saved.details).toMatchObject({ host: wh.details.host, dbname: wh.details.dbname, user: wh.details.user });
  });

  it('changes the schema sync schedule; the API holds it', async () => {
    if (!postgres) return;
    await page.getByRole('textbox', { name: 'Sync the database schema' }).click();
    await page.getByRole('option', { name: 'Daily' }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Shop is saved.').waitFor();
    await until(async () => (await databases())[0].metadata_sync_interval_minutes === 1440);
    // The stored password (none here) and the connection were kept: the database still answers.
    expect((await app.t.http().get(`/api/database/${dbId}/healthcheck`).set(auth(admin)).expect(200)).body).toEqual({ status: 'ok' });
  });

  it('"Sync database schema now" finds a table added since, and says when it finished', async () => {
    if (!postgres) return;
    await wh.exec(['CREATE TABLE refunds (id SERIAL PRIMARY KEY, amount NUMERIC(10, 2))']);
    await page.getByRole('button', { name: 'Sync database schema now' }).click();
    await page.getByRole('list', { name: 'Tables' }).getByRole('link', { name: 'public.Refunds' }).waitFor({ timeout: 60_000 });
    await page
      .getByRole('status')
      .filter({ hasText: /^Schema sync finished at/ })
      .waitFor();
    const log = (await app.t.http().get(`/api/database/${dbId}/sync_log`).set(auth(admin)).expect(200)).body;
    expect(log[0]).toMatchObject({ kind: 'metadata', status: 'succeeded' });
  });

  it('removes the database only once its name is typed', async () => {
    if (!postgres) return;
    await page.getByRole('button', { name: 'Remove this database' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove Shop?' });
    await dialog.waitFor();
    const remove = dialog.getByRole('button', { name: 'Remove database' });
    expect(await remove.isDisabled()).toBe(true);
    await dialog.getByLabel('Type Shop to confirm').fill('Shops');
    expect(await remove.isDisabled()).toBe(true);
    await reviewPage(page, 'admin-database-remove');
    await dialog.getByLabel('Type Shop to confirm').fill('Shop');
    await remove.click();
    await page.getByRole('heading', { name: 'Databases' }).waitFor();
    expect(pathOf(page)).toBe('/admin/databases');
    await page.getByText('No database is connected yet.').waitFor();
    expect(await databases()).toEqual([]);
  });
});
