import * as fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard } from '../support/dashboard-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { settledBox } from './support/layout';
import { shopDatabase } from './support/shop-db';

jest.setTimeout(300_000);

interface Dashcard {
  id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  col: number;
  row: number;
  size_x: number;
  size_y: number;
}
interface Dashboard {
  id: number;
  tabs: Array<{ id: number; name: string; position: number }>;
  dashcards: Dashcard[];
  public_uuid: string | null;
  enable_embedding: boolean;
}

/**
 * An admin reworks a dashboard in the application: resizes a card from its corner, moves a tab left and a card to
 * the other tab, and each is what the server then holds; views it in full screen with auto-refresh; downloads a
 * card's rows as CSV; and takes back its public link and its static embed.
 */
describeBrowser('editing, viewing and unsharing a dashboard', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dash: number;
  let allProducts: number;
  let productCount: number;
  const http = () => app.t.http();
  const dashboard = async () => (await http().get(`/api/dashboard/${dash}`).set(auth(admin)).expect(200)).body as Dashboard;
  const card = (name: string) => page.getByRole('region', { name, exact: true });
  const ready = (l: Locator) => until(async () => (await l.getAttribute('data-state')) === 'ready');
  const dashcardOf = (d: Dashboard, cardId: number) => d.dashcards.find((dc) => dc.card_id === cardId)!;
  const isDashcardRun = (url: string, method: string) =>
    method === 'POST' && new RegExp(`/api/dashboard/${dash}/dashcard/\\d+/card/\\d+/query$`).test(new URL(url).pathname);

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const shop = await shopDatabase(
      app,
      admin,
      `CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT);
      INSERT INTO products VALUES (1, 'Lamp', 'Home'), (2, 'Pen', 'Office'), (3, 'Rug', 'Home'), (4, 'Kite', 'Toys');`,
    );
    const products = shop.table('products');
    const id = products.field('id');
    allProducts = (
      await makeCard(app.t, admin, tableQuery(shop.id, products.id, { 'order-by': [['asc', ['field', id, null]]] }), {
        name: 'All products',
        display: 'table',
      })
    ).id;
    productCount = (
      await makeCard(app.t, admin, tableQuery(shop.id, products.id, { aggregation: [['count']] }), {
        name: 'Product count',
        display: 'scalar',
      })
    ).id;
    dash = (await makeDashboard(app.t, admin, { name: 'Shop overview' })).id;
    const at = (dcId: number, cardId: number, tab: number, size: [number, number]) => ({
      id: dcId,
      card_id: cardId,
      dashboard_tab_id: tab,
      row: 0,
      col: 0,
      size_x: size[0],
      size_y: size[1],
      parameter_mappings: [],
      visualization_settings: {},
    });
    await http()
      .put(`/api/dashboard/${dash}`)
      .set(auth(admin))
      .send({
        tabs: [
          { id: -1, name: 'Overview' },
          { id: -2, name: 'Details' },
        ],
        dashcards: [at(-1, allProducts, -1, [12, 6]), at(-2, productCount, -2, [6, 4])],
      })
      .expect(200);
    await http()
      .put('/api/setting')
      .set(auth(admin))
      .send({ 'enable-public-sharing': true, 'enable-embedding-static': true, 'embedding-secret-key': 'c'.repeat(64) })
      .expect(204);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('resizes a card from its corner while editing; the saved dashcard has the new size', async () => {
    page = await app.open(`/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    await ready(card('All products'));
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Move All products (drag)' }).waitFor();

    // A 24-column grid with 8px gaps: one column is (width - 23 * 8) / 24 wide, a row 48px high.
    // The grid measures its width once drawn, and its cards glide to their places: the card must be still first.
    const box = await settledBox(card('All products'));
    const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
    const column = (grid.width - 23 * 8) / 24 + 8;
    const corner = { x: box.x + box.width - 4, y: box.y + box.height - 4 };
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.mouse.move(corner.x + column * 2, corner.y + 28, { steps: 5 });
    await page.mouse.move(corner.x + column * 4, corner.y + 56 * 2, { steps: 5 });
    await page.mouse.up();
    await until(async () => ((await card('All products').boundingBox())?.width ?? 0) > box.width + column * 3);
    await reviewPage(page, 'dashboard-editing-resized');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    const saved = dashcardOf(await dashboard(), allProducts);
    expect(saved).toMatchObject({ col: 0, row: 0, size_x: 16, size_y: 8 });
  });

  it('moves a tab left and a card to the other tab; the server holds the new positions and tab', async () => {
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('tab', { name: 'Details' }).click();
    await page.getByRole('button', { name: 'Actions of the tab Details' }).click();
    await page.getByRole('menuitem', { name: 'Move left' }).click();
    await until(
      async () =>
        (await page.getByRole('tablist', { name: 'Dashboard tabs' }).getByRole('tab').allTextContents()).join() === 'Details,Overview',
    );
    await page.getByRole('button', { name: 'Move Product count to another tab' }).click();
    await page.getByRole('menuitem', { name: 'Move to Overview' }).click();
    await page.getByText('Add a question or a card to this tab.').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();

    const saved = await dashboard();
    const byPosition = [...saved.tabs].sort((a, b) => a.position - b.position);
    expect(byPosition.map((t) => t.name)).toEqual(['Details', 'Overview']);
    const overview = saved.tabs.find((t) => t.name === 'Overview')!;
    expect(dashcardOf(saved, productCount).dashboard_tab_id).toBe(overview.id);
    expect(dashcardOf(saved, allProducts).dashboard_tab_id).toBe(overview.id);

    // The viewer shows the same: Details first (and empty), both cards on Overview.
    expect(await page.getByRole('tablist', { name: 'Dashboard tabs' }).getByRole('tab').allTextContents()).toEqual(['Details', 'Overview']);
    await page.getByText('This tab is empty.').waitFor();
    await page.getByRole('tab', { name: 'Overview' }).click();
    await ready(card('Product count'));
    await ready(card('All products'));
  });

  it('full screen hides the navigation; an auto-refresh period re-runs the cards', async () => {
    const nav = page.getByRole('navigation', { name: 'Collections' });
    await nav.waitFor();
    await page.getByRole('button', { name: 'Full screen' }).click();
    await nav.waitFor({ state: 'detached' });
    expect(await page.getByRole('banner').count()).toBe(0);
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor({ state: 'detached' });

    // A minute is long to wait for: the page's clock jumps ahead instead.
    await page.clock.install();
    await page.getByRole('button', { name: 'Auto-refresh' }).click();
    await page.getByRole('menuitem', { name: 'Every 1 minute' }).click();
    await page.getByRole('button', { name: 'Auto-refresh: 1 minute' }).waitFor();
    const reruns: string[] = [];
    page.on('request', (r) => {
      if (isDashcardRun(r.url(), r.method())) reruns.push(r.url());
    });
    const rerun = page.waitForRequest((r) => isDashcardRun(r.url(), r.method()));
    await page.clock.runFor(61_000);
    await rerun;
    await until(async () => reruns.length >= 2);
    await ready(card('All products'));
    await ready(card('Product count'));

    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await nav.waitFor();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
  });

  it("downloads a card's rows as CSV through the dashcard's download endpoint", async () => {
    const dc = dashcardOf(await dashboard(), allProducts);
    await page.getByRole('button', { name: 'Menu of All products' }).click();
    const posted = page.waitForRequest(
      (r) =>
        r.method() === 'POST' && new URL(r.url()).pathname === `/api/dashboard/${dash}/dashcard/${dc.id}/card/${allProducts}/query/csv`,
    );
    const file = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '.csv' }).click();
    await posted;
    const download = await file;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const lines = fs.readFileSync((await download.path())!, 'utf8').split(/\r?\n/);
    expect(lines[0]).toBe('ID,Title,Category');
    expect(lines[1]).toContain('Lamp');
  });

  it('takes back the public link and the static embed from the sharing dialog', async () => {
    const dialog = page.getByRole('dialog', { name: 'Share "Shop overview"' });
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Sharing and embedding' }).click();

    await dialog.getByRole('tab', { name: 'Public link' }).click();
    await dialog.getByRole('button', { name: 'Create a public link' }).click();
    await dialog.getByRole('textbox', { name: 'Public link', exact: true }).waitFor();
    const uuid = (await dashboard()).public_uuid!;
    await http().get(`/api/public/dashboard/${uuid}`).expect(200);
    await dialog.getByRole('button', { name: 'Remove the public link' }).click();
    await page.getByRole('dialog', { name: 'Remove the public link?' }).getByRole('button', { name: 'Remove the link' }).click();
    await dialog.getByRole('button', { name: 'Create a public link' }).waitFor();
    expect((await dashboard()).public_uuid).toBeNull();
    await http().get(`/api/public/dashboard/${uuid}`).expect(404);
    const visitor = await app.open(`/public/dashboard/${uuid}`);
    await visitor.getByRole('heading', { name: 'This link is no longer available' }).waitFor();
    await visitor.close();

    await dialog.getByRole('tab', { name: 'Static embedding' }).click();
    await dialog.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.getByText('Published', { exact: true }).waitFor();
    expect((await dashboard()).enable_embedding).toBe(true);
    await dialog.getByRole('button', { name: 'Unpublish' }).click();
    await dialog.getByText('Not published', { exact: true }).waitFor();
    expect((await dashboard()).enable_embedding).toBe(false);
  });

  it("overrides a chart's settings on this dashboard only: values shown and a goal line, the question untouched", async () => {
    const d = await dashboard();
    const products = (await http().get(`/api/card/${allProducts}`).set(auth(admin)).expect(200)).body.dataset_query;
    const category = (
      (await http().get(`/api/table/${products.query['source-table']}/query_metadata`).set(auth(admin)).expect(200)).body.fields as Array<{
        id: number;
        name: string;
      }>
    ).find((f) => f.name === 'category')!.id;
    const bar = (
      await makeCard(
        app.t,
        admin,
        tableQuery(products.database, products.query['source-table'], {
          aggregation: [['count']],
          breakout: [['field', category, null]],
        }),
        { name: 'Products per category', display: 'bar' },
      )
    ).id;
    const question = async () => (await http().get(`/api/card/${bar}`).set(auth(admin)).expect(200)).body.visualization_settings;
    const before = await question();
    const first = [...d.tabs].sort((a, b) => a.position - b.position)[0];
    const added = { id: -3, card_id: bar, dashboard_tab_id: first.id, row: 20, col: 0, size_x: 12, size_y: 6 };
    await http()
      .put(`/api/dashboard/${dash}`)
      .set(auth(admin))
      .send({ tabs: d.tabs, dashcards: [...d.dashcards, { ...added, parameter_mappings: [], visualization_settings: {} }] })
      .expect(200);

    await page.goto(`${app.base}/dashboard/${dash}`);
    await ready(card('Products per category'));
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Settings of Products per category' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings of Products per category' });
    const chart = dialog.getByRole('group', { name: 'Chart on this dashboard' });
    await chart.getByRole('switch', { name: 'Show values on the chart' }).check();
    await chart.getByRole('switch', { name: 'Goal line' }).check();
    await chart.getByLabel('Goal value').fill('2');
    await reviewPage(page, 'dashboard-card-chart-settings');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    await ready(card('Products per category'));

    const saved = (await dashboard()).dashcards.find((dc) => dc.card_id === bar) as Dashcard & { visualization_settings: object };
    expect(saved.visualization_settings).toEqual({ 'graph.show_values': true, 'graph.show_goal': true, 'graph.goal_value': 2 });
    expect(await question()).toEqual(before);
  });
});
