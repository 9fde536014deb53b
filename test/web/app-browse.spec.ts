import type { Page } from 'playwright-core';
import { makeModel, nativeQuery } from '../support/card-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

/** Browse data as an analyst: databases, a database's tables, a table's fields with "Start a question" and its x-ray; models. */
describeBrowser('browse data', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let db: number;
  const http = () => app.t.http();

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir, {
      statements: [
        'CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL, created_at TEXT)',
        'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, category TEXT)',
      ],
    });
    db = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200))
      .body.id;
    await waitForSync(app.t, admin, db);
    await makeModel(app.t, admin, nativeQuery(db, 'SELECT * FROM orders'), { name: 'Order facts' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists the databases, and a database without schemas straight to its tables', async () => {
    page = await app.open('/browse/databases');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Databases', level: 1 }).waitFor();
    await reviewPage(page, 'browse-databases');
    await page.getByRole('list', { name: 'Databases' }).getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('heading', { name: 'Shop', level: 1 }).waitFor();
    const tables = page.getByRole('list', { name: 'Tables' });
    await tables.getByRole('link', { name: 'Orders' }).waitFor();
    const api = (await http().get(`/api/database/${db}/schema/`).set(auth(admin)).expect(200)).body as Array<{ display_name: string }>;
    expect((await tables.getByRole('link').allTextContents()).sort()).toEqual(api.map((t) => t.display_name).sort());
    await reviewPage(page, 'browse-tables');
  });

  it("a table's page lists its fields and offers a question and an x-ray", async () => {
    await page.getByRole('list', { name: 'Tables' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    const tableId = Number(pathOf(page).split('/').pop());
    const fields = page.getByRole('table', { name: 'Fields' });
    await fields.getByRole('cell', { name: 'Total', exact: true }).waitFor();
    await fields.getByRole('cell', { name: 'Created At', exact: true }).waitFor();
    await reviewPage(page, 'browse-table');
    expect(await page.getByRole('link', { name: 'Start a question' }).getAttribute('href')).toBe(`/question/notebook?table=${tableId}`);
    await page.getByRole('link', { name: 'X-ray this table' }).click();
    await until(() => pathOf(page) === `/auto/dashboard/table/${tableId}`);
    await page.goBack();
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Shop' }).click();
    await page.getByRole('list', { name: 'Tables' }).waitFor();
  });

  it('lists the models with where they live', async () => {
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Models' }).click();
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    const models = page.getByRole('list', { name: 'Models' });
    await models.getByRole('link', { name: 'Order facts' }).waitFor();
    await models.getByText('in Our analytics').waitFor();
    await reviewPage(page, 'browse-models');
    await models.getByRole('link', { name: 'Order facts' }).click();
    await until(() => /^\/model\/\d+-order_facts$/.test(pathOf(page)));
  });
});
