import type { Page, Request } from 'playwright-core';
import { makeCard, makeModel, nativeQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

/**
 * Search as a person uses it: the results page with each result's collection path and the type filters in the URL,
 * and the command palette (Ctrl+K) driven by the keyboard, whose superseded requests are cancelled as one types.
 */
describeBrowser('search: the results page and the command palette', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let cardId: number;
  const http = () => app.t.http();
  const post = async <T>(p: string, body: object): Promise<T> => (await http().post(p).set(auth(admin)).send(body).expect(200)).body as T;
  const results = () => page.getByRole('list', { name: 'Results' });

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir);
    const db = (await post<{ id: number }>('/api/database', { engine: 'sqlite', name: 'Shop', details: sqlite.details })).id;
    const sales = (await post<{ id: number }>('/api/collection', { name: 'Sales' })).id;
    const regional = (await post<{ id: number }>('/api/collection', { name: 'Regional', parent_id: sales })).id;
    cardId = (await makeCard(app.t, admin, nativeQuery(db, 'SELECT 1 AS n'), { name: 'Revenue by region', collection_id: regional })).id;
    await makeModel(app.t, admin, nativeQuery(db, 'SELECT 2 AS n'), { name: 'Revenue model', collection_id: sales });
    await makeDashboard(app.t, admin, { name: 'Revenue overview' });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists the results, each with its collection path', async () => {
    page = await app.open('/search?q=revenue');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Results for “revenue”', level: 1 }).waitFor();
    await page.getByText('3 results').waitFor();
    const item = (name: string) =>
      results()
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name }) });
    await item('Revenue by region').getByText('in Our analytics / Sales / Regional').waitFor();
    await item('Revenue model').getByText('in Our analytics / Sales').waitFor();
    await item('Revenue overview').getByText('in Our analytics', { exact: true }).waitFor();
    await reviewPage(page, 'search');
  });

  it('filters by type; the filter is in the URL and is what the API answers', async () => {
    await page.getByRole('group', { name: 'Type' }).getByText('Models', { exact: true }).click();
    await page.getByText('1 result', { exact: true }).waitFor();
    expect(pathOf(page)).toBe('/search?q=revenue&models=dataset');
    expect(await page.getByRole('group', { name: 'Type' }).getByRole('checkbox', { name: 'Models' }).isChecked()).toBe(true);
    const api = (await http().get('/api/search?q=revenue&models=dataset').set(auth(admin)).expect(200)).body as {
      data: Array<{ name: string }>;
    };
    expect(await results().getByRole('link').allTextContents()).toEqual(api.data.map((r) => r.name));
    await page.getByRole('group', { name: 'Type' }).getByText('Dashboards', { exact: true }).click();
    await page.getByText('2 results').waitFor();
    expect(pathOf(page)).toBe('/search?q=revenue&models=dataset&models=dashboard');
  });

  it('the palette opens with Ctrl+K, cancels stale searches as one types, and is driven by the keyboard', async () => {
    await page.goto(`${app.base}/`);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    // The search for "Rev" is held back: typing on supersedes it, and the browser must abort it.
    const held: Request[] = [];
    await page.route(/\/api\/search\?q=Rev&/, async (route) => {
      held.push(route.request());
      await until(() => false, 5_000).catch(() => undefined);
      await route.continue().catch(() => undefined);
    });
    const aborted: string[] = [];
    page.on('requestfailed', (r) => {
      if (r.url().includes('/api/search')) aborted.push(new URL(r.url()).searchParams.get('q') ?? '');
    });
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Search' });
    const box = dialog.getByRole('combobox', { name: 'Search' });
    await box.waitFor();
    await box.pressSequentially('Rev');
    await until(() => held.length > 0);
    await box.pressSequentially('enue by');
    await dialog.getByRole('option', { name: /Revenue by region/ }).waitFor();
    await until(() => aborted.includes('Rev'));
    await reviewPage(page, 'command-palette');

    const options = dialog.getByRole('listbox', { name: 'Results' }).getByRole('option');
    expect(await options.first().getAttribute('aria-selected')).toBe('true');
    await box.press('ArrowDown');
    await until(async () => (await options.nth(1).getAttribute('aria-selected')) === 'true');
    expect(await options.nth(1).textContent()).toContain('See all results for “Revenue by”');
    expect(await box.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await box.press('ArrowUp');
    await box.press('Enter');
    await until(() => pathOf(page).startsWith(`/question/${cardId}-`));
    await dialog.waitFor({ state: 'detached' });

    await page.keyboard.press('Control+k');
    await box.fill('revenue');
    await dialog.getByRole('option', { name: /Revenue model/ }).waitFor();
    await box.press('End');
    await box.press('Enter');
    await page.getByRole('heading', { name: 'Results for “revenue”', level: 1 }).waitFor();
    expect(pathOf(page)).toBe('/search?q=revenue');
  });
});
