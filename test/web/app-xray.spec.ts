import type { Page } from 'playwright-core';
import type { XrayDashboard } from '../support/automagic';
import { makeCard, tableQuery } from '../support/card-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForDatabase, waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface SavedDashboard {
  id: number;
  name: string;
  collection_id: number | null;
  dashcards: Array<{ id: number; card_id: number | null; card: { name: string } | null }>;
}

/**
 * X-rays as a person opens them: the ORDERS table's x-ray drawn card by card as the API answers it, a related x-ray
 * followed from the side panel, the x-ray saved as a dashboard (the server then holds a question per card), and a
 * saved question's x-ray from its menu.
 */
describeBrowser('x-rays in the application', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let sample: number;
  const tables = new Map<string, number>();
  const http = () => app.t.http();
  const get = async <T>(p: string): Promise<T> => (await http().get(p).set(auth(admin)).expect(200)).body as T;
  const queryCards = (d: XrayDashboard) => d.dashcards.filter((dc) => dc.card);

  /** Each card of the x-ray is drawn under its name, and each one ran (ready, no error). */
  const expectCardsDrawn = async (d: XrayDashboard) => {
    const counts = new Map<string, number>();
    for (const dc of queryCards(d)) counts.set(dc.card!.name, (counts.get(dc.card!.name) ?? 0) + 1);
    for (const [name, n] of counts) {
      const regions = page.getByRole('region', { name, exact: true });
      await until(async () => (await regions.count()) === n);
      for (let i = 0; i < n; i++) {
        await until(async () => ['ready', 'error'].includes((await regions.nth(i).getAttribute('data-state')) ?? ''), 60_000);
        expect({ name, state: await regions.nth(i).getAttribute('data-state') }).toEqual({ name, state: 'ready' });
      }
    }
    // Every dashcard of the answer is drawn: the questions, and the sections' text cards.
    const grid = page.getByTestId('dashboard-grid');
    expect(await grid.getByRole('region').count()).toBe(d.dashcards.length);
    expect(await grid.getByRole('region', { name: 'Text card', exact: true }).count()).toBe(d.dashcards.length - queryCards(d).length);
  };

  beforeAll(async () => {
    app = await startAppServer({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(app.t);
    sample = await waitForDatabase(app.t, admin, 'Sample Database');
    await waitForSync(app.t, admin, sample);
    const meta = await get<{ tables: Array<{ id: number; name: string }> }>(`/api/database/${sample}/metadata`);
    for (const t of meta.tables) tables.set(t.name, t.id);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("draws the ORDERS x-ray's cards as the API answers them, its filters and the related x-rays beside it", async () => {
    const orders = tables.get('ORDERS')!;
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/table/${orders}`);
    page = await app.open(`/auto/dashboard/table/${orders}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'A look at Orders', level: 1 }).waitFor();
    await expectCardsDrawn(d);
    // The sections are text cards.
    await page.getByRole('heading', { name: 'Overview' }).first().waitFor();
    const filters = page.getByRole('group', { name: 'Filters' });
    for (const p of d.parameters) await filters.getByLabel(p.name, { exact: true }).first().waitFor();
    const panel = page.getByRole('complementary', { name: 'More x-rays' });
    await panel.getByRole('link', { name: 'Products', exact: true }).waitFor();
    await reviewPage(page, 'xray-table');
  });

  it("filters the x-ray's cards: a category picked from the field's values narrows the count", async () => {
    const orders = tables.get('ORDERS')!;
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/table/${orders}`);
    const category = d.parameters.find((p) => p.name === 'Category')!;
    const total = queryCards(d).find((dc) => dc.card!.name === 'Total transactions')!;
    const mapping = total.parameter_mappings.find((m) => m.parameter_id === category.id)!;
    const answer = await http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({ ...total.card!.dataset_query, parameters: [{ type: category.type, target: mapping.target, value: ['Gizmo'] }] })
      .expect(202);
    const expected = Number(answer.body.data.rows[0][0]).toLocaleString('en-US');
    const before = (await page.getByRole('region', { name: 'Total transactions', exact: true }).textContent()) ?? '';
    expect(before).not.toContain(expected);
    await page.getByRole('group', { name: 'Filters' }).getByLabel('Category', { exact: true }).click();
    await page.getByRole('option', { name: 'Gizmo', exact: true }).click();
    await page.keyboard.press('Escape');
    const card = page.getByRole('region', { name: 'Total transactions', exact: true });
    await until(async () => ((await card.textContent()) ?? '').includes(expected));
  });

  it('follows a linked table from the side panel to its x-ray', async () => {
    const products = tables.get('PRODUCTS')!;
    const panel = page.getByRole('complementary', { name: 'More x-rays' });
    await panel.getByRole('region', { name: 'Linked tables' }).getByRole('link', { name: 'Products', exact: true }).click();
    await until(() => pathOf(page) === `/auto/dashboard/table/${products}`);
    await page.getByRole('heading', { name: 'A look at Products', level: 1 }).waitFor();
    await expectCardsDrawn(await get<XrayDashboard>(`/api/automagic-dashboards/table/${products}`));
  });

  it('saves the x-ray as a dashboard and opens it: the server holds a question per card', async () => {
    const products = tables.get('PRODUCTS')!;
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/table/${products}`);
    await page.getByRole('button', { name: 'Save this' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save this x-ray as a dashboard' });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await until(() => /^\/dashboard\/\d+/.test(pathOf(page)));
    const id = Number(/^\/dashboard\/(\d+)/.exec(pathOf(page))![1]);
    await page.getByRole('heading', { name: 'A look at Products', level: 1 }).waitFor();
    const saved = await get<SavedDashboard>(`/api/dashboard/${id}`);
    expect(saved).toMatchObject({ name: 'A look at Products', collection_id: null });
    expect(saved.dashcards).toHaveLength(d.dashcards.length);
    const withCards = saved.dashcards.filter((dc) => dc.card_id !== null);
    expect(withCards.map((dc) => dc.card!.name).sort()).toEqual(
      queryCards(d)
        .map((dc) => dc.card!.name)
        .sort(),
    );
    // The saved dashboard's cards run as any dashboard's.
    const first = page.getByRole('region', { name: withCards[0].card!.name, exact: true }).first();
    await until(async () => (await first.getAttribute('data-state')) === 'ready', 60_000);
  });

  it("compares the table with one of its segments from the panel's Compare link", async () => {
    const orders = tables.get('ORDERS')!;
    const meta = await get<{ fields: Array<{ id: number; name: string }> }>(`/api/table/${orders}/query_metadata`);
    const total = meta.fields.find((f) => f.name === 'TOTAL')!.id;
    const segment = (
      await http()
        .post('/api/segment')
        .set(auth(admin))
        .send({ name: 'Big orders', table_id: orders, definition: { 'source-table': orders, filter: ['>', ['field', total, null], 100] } })
        .expect(200)
    ).body.id as number;
    await page.goto(`${app.base}/auto/dashboard/table/${orders}`);
    await page.getByRole('heading', { name: 'A look at Orders', level: 1 }).waitFor();
    const panel = page.getByRole('complementary', { name: 'More x-rays' });
    await panel.getByRole('region', { name: 'Compare' }).getByRole('link', { name: 'Compare with Big orders' }).click();
    await until(() => pathOf(page) === `/auto/dashboard/table/${orders}/compare/segment/${segment}`);
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/table/${orders}/compare/segment/${segment}`);
    await page.getByRole('heading', { name: d.name, level: 1 }).waitFor();
    await expectCardsDrawn(d);
    await reviewPage(page, 'xray-compare');
  });

  it('draws the x-ray of an ad-hoc query from its base64 path', async () => {
    const orders = tables.get('ORDERS')!;
    const query = tableQuery(sample, orders);
    const encoded = Buffer.from(JSON.stringify(query)).toString('base64url');
    await page.goto(`${app.base}/auto/dashboard/adhoc/${encoded}`);
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/adhoc/${encoded}`);
    await page.getByRole('heading', { name: d.name, level: 1 }).waitFor();
    await expectCardsDrawn(d);
  });

  it('shows the cards `show` left out behind "Show more about this"', async () => {
    const orders = tables.get('ORDERS')!;
    await page.goto(`${app.base}/auto/dashboard/table/${orders}?show=2`);
    await page.getByRole('heading', { name: 'A look at Orders', level: 1 }).waitFor();
    await expectCardsDrawn(await get<XrayDashboard>(`/api/automagic-dashboards/table/${orders}?show=2`));
    await page.getByRole('link', { name: 'Show more about this' }).click();
    await until(() => pathOf(page) === `/auto/dashboard/table/${orders}?show=all`);
    const all = await get<XrayDashboard>(`/api/automagic-dashboards/table/${orders}?show=all`);
    expect(all.more).toBeNull();
    await expectCardsDrawn(all);
    expect(await page.getByRole('link', { name: 'Show more about this' }).count()).toBe(0);
  });

  it("opens a saved question's x-ray from its menu", async () => {
    const orders = tables.get('ORDERS')!;
    const card = await makeCard(app.t, admin, tableQuery(sample, orders), { name: 'Every order', display: 'table' });
    await page.goto(`${app.base}/question/${card.id}`);
    await page.getByRole('button', { name: 'More actions for this question' }).click();
    await page.getByRole('menuitem', { name: 'X-ray this question' }).click();
    await until(() => pathOf(page) === `/auto/dashboard/question/${card.id}`);
    const d = await get<XrayDashboard>(`/api/automagic-dashboards/question/${card.id}`);
    await page.getByRole('heading', { name: d.name, level: 1 }).waitFor();
    await expectCardsDrawn(d);
  });
});
