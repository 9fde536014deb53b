import type { Page } from 'playwright-core';
import { nativeQuery, makeCard } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { describeBrowser } from './support/browser';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';

jest.setTimeout(300_000);

/** Admin > Settings > Public sharing, Uploads and Caching, walked by an admin; each change checked through the API. */
describeBrowser('the admin console: public sharing, uploads and caching', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let db: number;
  const http = () => app.t.http();
  const setting = async (key: string) => (await http().get(`/api/setting/${key}`).set(auth(admin)).expect(200)).body;

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir);
    db = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200))
      .body.id;
    page = await app.open('/auth/login?redirect=%2Fadmin%2Fsettings%2Fpublic-sharing');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('public sharing: turned on from the screen, the shared items listed, a link revoked after a confirmation', async () => {
    await page.getByRole('heading', { name: 'Public sharing', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/admin/settings/public-sharing');
    await page.getByText('Public sharing is off: no public link works, and none is listed.').waitFor();
    await page.getByRole('switch', { name: 'Enable public sharing' }).check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('No question has a public link.').waitFor();
    expect(await setting('enable-public-sharing')).toBe(true);

    const card = await makeCard(app.t, admin, nativeQuery(db, 'SELECT 1 AS n'), { name: 'Weekly revenue' });
    const dashboard = await makeDashboard(app.t, admin, { name: 'Sales overview' });
    const uuid = (await http().post(`/api/card/${card.id}/public_link`).set(auth(admin)).expect(200)).body.uuid as string;
    await http().post(`/api/dashboard/${dashboard.id}/public_link`).set(auth(admin)).expect(200);
    await http().get(`/api/public/card/${uuid}`).expect(200);

    await page.reload();
    const cards = page.getByRole('table', { name: 'Shared questions' });
    await cards.getByRole('link', { name: 'Weekly revenue', exact: true }).waitFor();
    expect(
      await cards
        .getByRole('row', { name: /Weekly revenue/ })
        .getByRole('link', { name: /\/public\/question\// })
        .textContent(),
    ).toBe(`${app.base}/public/question/${uuid}`);
    await page.getByRole('table', { name: 'Shared dashboards' }).getByRole('link', { name: 'Sales overview', exact: true }).waitFor();
    await reviewPage(page, 'admin-settings-public-sharing');

    await cards.getByRole('button', { name: 'Revoke link for Weekly revenue' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke link?' });
    await dialog.getByText('Anyone with the link to the question Weekly revenue loses access at once.', { exact: false }).waitFor();
    await reviewPage(page, 'admin-settings-public-sharing-revoke');
    await dialog.getByRole('button', { name: 'Revoke link' }).click();
    await page.getByText('No question has a public link.').waitFor();
    expect((await http().get('/api/card/public').set(auth(admin)).expect(200)).body).toEqual([]);
    await http().get(`/api/public/card/${uuid}`).expect(404);
    // The dashboard's link is untouched.
    expect((await http().get('/api/dashboard/public').set(auth(admin)).expect(200)).body).toEqual([
      expect.objectContaining({ id: dashboard.id, name: 'Sales overview' }),
    ]);
  });

  it('uploads: a DuckDB database and a prefix, checked as typed; clearing the database turns uploads off', async () => {
    const duck = await e2eWarehouse('duckdb', app.dataDir);
    const uploadsDb = (
      await http().post('/api/database').set(auth(admin)).send({ engine: 'duckdb', name: 'Lake', details: duck.details }).expect(200)
    ).body.id;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Uploads' }).click();
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    const database = page.getByRole('textbox', { name: 'Database to upload to' });
    await database.click();
    // SQLite takes no uploads: only the DuckDB database is offered.
    expect(await page.getByRole('option').allTextContents()).toEqual(['Lake']);
    await page.getByRole('option', { name: 'Lake' }).click();
    const prefix = page.getByLabel('Table name prefix');
    await prefix.fill('up-');
    await page.getByText('Up to 20 letters, digits or underscores.').waitFor();
    expect(await fieldDescription(prefix)).toContain('Up to 20 letters, digits or underscores.');
    await reviewPage(page, 'admin-settings-uploads');
    await prefix.fill('up_');
    await page.getByLabel('Schema').fill('main');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('uploads-settings')).toEqual({ db_id: uploadsDb, schema_name: 'main', table_prefix: 'up_' });

    await page.getByRole('button', { name: 'Turn uploads off' }).click();
    expect(await page.getByLabel('Table name prefix').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await until(async () => (await setting('uploads-settings')).db_id === null);
    expect(await setting('uploads-settings')).toEqual({ db_id: null, schema_name: null, table_prefix: null });
  });

  it('caching: turned on with a minimum duration and a multiplier, the numbers disabled while it is off', async () => {
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Caching' }).click();
    await page.getByRole('heading', { name: 'Caching', level: 1 }).waitFor();
    const min = page.getByLabel('Minimum query duration (seconds)');
    expect(await min.isDisabled()).toBe(true);
    await page.getByRole('switch', { name: 'Cache the results of saved questions' }).check();
    await min.fill('5');
    await page.getByLabel('Cache time-to-live multiplier').fill('20');
    await reviewPage(page, 'admin-settings-caching');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').first().waitFor();
    expect(await setting('enable-query-caching')).toBe(true);
    expect(await setting('query-caching-min-ttl')).toBe(5);
    expect(await setting('query-caching-ttl-ratio')).toBe(20);
  });
});
