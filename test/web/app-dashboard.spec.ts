import Database from 'better-sqlite3';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { actionWarehouse, queryActionBody } from '../e2e/actions-helpers';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { makeCollection } from '../support/collection-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface Dashcard {
  id: number;
  card_id: number | null;
  dashboard_tab_id: number | null;
  parameter_mappings: Array<{ parameter_id: string; card_id: number; target: unknown }>;
}
interface Dashboard {
  id: number;
  name: string;
  parameters: Array<{ id: string; name: string; type: string; slug: string; filteringParameters?: string[] }>;
  tabs: Array<{ id: number; name: string }>;
  dashcards: Dashcard[];
}
interface QueryAnswer {
  data: { rows: unknown[][] };
}

/**
 * Dashboards as an analyst builds them in the application: three questions on two tabs, a category filter wired to
 * all three and a state filter that narrows the category's choices, saved as one PUT; after a reload each card's rows
 * are those the dashcard query answers with the filter's value; then an earlier revision is restored.
 */
describeBrowser('dashboards in the application', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dash: number;
  let categoryField: number;
  let stateField: number;
  let barCard: number;
  const http = () => app.t.http();
  const get = async <T>(p: string): Promise<T> => (await http().get(p).set(auth(admin)).expect(200)).body as T;
  const dashboard = () => get<Dashboard>(`/api/dashboard/${dash}`);
  const card = (name: string) => page.getByRole('region', { name, exact: true });
  const ready = (l: Locator) => until(async () => (await l.getAttribute('data-state')) === 'ready');

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const file = path.join(app.dataDir, 'shop.db');
    const db = new Database(file);
    db.exec(`
      CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL, category TEXT, state TEXT, price REAL);
      INSERT INTO products (id, title, category, state, price) VALUES
        (1, 'Lamp', 'Home', 'CA', 30), (2, 'Pen', 'Office', 'NY', 2), (3, 'Rug', 'Home', 'NY', 120),
        (4, 'Desk', 'Office', 'CA', 250), (5, 'Kite', 'Toys', 'TX', 15), (6, 'Vase', 'Home', 'TX', 40);
    `);
    db.close();
    const created = await http()
      .post('/api/database')
      .set(auth(admin))
      .send({ engine: 'sqlite', name: 'Shop', details: { db: 'shop.db' } })
      .expect(200);
    const dbId = created.body.id as number;
    await waitForSync(app.t, admin, dbId);
    const meta = await get<{ tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }> }>(
      `/api/database/${dbId}/metadata`,
    );
    const products = meta.tables.find((t) => t.name === 'products')!;
    categoryField = products.fields.find((f) => f.name === 'category')!.id;
    stateField = products.fields.find((f) => f.name === 'state')!.id;
    const field = (id: number) => ['field', id, null];
    await makeCard(
      app.t,
      admin,
      tableQuery(dbId, products.id, { 'order-by': [['asc', field(products.fields.find((f) => f.name === 'id')!.id)]] }),
      {
        name: 'All products',
        display: 'table',
      },
    );
    await makeCard(app.t, admin, tableQuery(dbId, products.id, { aggregation: [['count']], breakout: [field(categoryField)] }), {
      name: 'Products per category',
      display: 'table',
    });
    await makeCard(app.t, admin, tableQuery(dbId, products.id, { aggregation: [['count']] }), { name: 'Product count', display: 'scalar' });
    const byCategory = (aggregation: unknown[]) =>
      tableQuery(dbId, products.id, { aggregation: [aggregation], breakout: [field(categoryField)] });
    barCard = (await makeCard(app.t, admin, byCategory(['count']), { name: 'Count by category', display: 'bar' })).id;
    await makeCard(app.t, admin, byCategory(['sum', field(products.fields.find((f) => f.name === 'price')!.id)]), {
      name: 'Price by category',
      display: 'bar',
    });
    dash = (await makeDashboard(app.t, admin, { name: 'Shop overview' })).id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('opens an empty dashboard', async () => {
    page = await app.open(`/dashboard/${dash}-shop-overview`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    await page.getByText('This dashboard is empty.').waitFor();
    await reviewPage(page, 'dashboard-empty');
  });

  it('builds three questions on two tabs with a category filter wired to all three, and saves them in one PUT', async () => {
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    const addQuestion = async (name: string) => {
      await page.getByRole('button', { name: 'Add a question' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a question' });
      await dialog.getByLabel('Search questions and models').fill(name);
      await dialog.getByRole('button', { name: new RegExp(`^${name}`) }).click();
      await dialog.waitFor({ state: 'detached' });
      await card(name).waitFor();
    };
    await addQuestion('All products');
    await addQuestion('Products per category');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('menuitem', { name: 'Heading' }).click();
    await page.getByLabel('Heading text').fill('Stock');
    // Duplicated, then the copy removed again.
    await page.getByRole('button', { name: 'Duplicate heading card' }).click();
    await until(async () => (await page.getByLabel('Heading text').count()) === 2);
    await page.getByRole('button', { name: 'Remove heading card' }).last().click();
    await until(async () => (await page.getByLabel('Heading text').count()) === 1);
    await page.getByRole('button', { name: 'Add a tab' }).click();
    await page.getByRole('tab', { name: 'Tab 2' }).waitFor();
    await addQuestion('Product count');
    // Renamed in place from the tab's menu.
    await page.getByRole('button', { name: 'Actions of the tab Tab 2' }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    await page.getByLabel('Tab name').fill('Totals');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await page.getByRole('tab', { name: 'Totals' }).waitFor();

    const addFilter = async (type: string) => {
      await page.getByRole('button', { name: 'Add a filter' }).click();
      await page.getByRole('menuitem', { name: type, exact: true }).click();
    };
    await addFilter('Category');
    const settings = page.getByRole('region', { name: 'Filter settings' });
    await settings.waitFor();
    const wire = async (name: string, column: string) => {
      await card(name)
        .getByLabel(/^Column filtered by/)
        .click();
      await page.getByRole('option', { name: column, exact: true }).click();
    };
    await wire('Product count', 'Category');
    await page.getByRole('tab', { name: 'Tab 1' }).click();
    await wire('All products', 'Category');
    // The other question of this tab shows the same column: wired by itself, which can be undone.
    const column = (name: string) => card(name).getByLabel(/^Column filtered by/);
    const notice = page.getByRole('status').filter({ hasText: 'Also wired to 1 other card showing the same column' });
    await notice.waitFor();
    expect(await column('Products per category').inputValue()).toBe('Category');
    await reviewPage(page, 'dashboard-auto-wired');
    await notice.getByRole('button', { name: 'Undo' }).click();
    await until(async () => (await column('Products per category').inputValue()) === '');
    expect(await column('All products').inputValue()).toBe('Category');
    await wire('Products per category', 'Category');
    await reviewPage(page, 'dashboard-editing-filter');
    await settings.getByRole('button', { name: 'Close the filter settings' }).click();

    // A click on a category of this card filters the dashboard by it.
    await page.getByRole('button', { name: 'Settings of Products per category' }).click();
    const cardSettings = page.getByRole('dialog', { name: 'Settings of Products per category' });
    await cardSettings.getByLabel('On click').click();
    await page.getByRole('option', { name: 'Filter this dashboard' }).click();
    await cardSettings.getByLabel('Column that sets Category').click();
    await page.getByRole('option', { name: 'Category', exact: true }).click();
    await cardSettings.getByRole('button', { name: 'Done' }).click();

    // A state filter, which then limits the category's choices.
    await addFilter('Location');
    await settings.getByLabel('Label').fill('State');
    await wire('All products', 'State');
    await page.getByRole('group', { name: 'Filters' }).getByRole('button', { name: 'Category' }).click();
    await settings.getByRole('checkbox', { name: 'State' }).check();
    await settings.getByRole('button', { name: 'Close the filter settings' }).click();

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();

    const saved = await dashboard();
    expect(saved.tabs.map((t) => t.name)).toEqual(['Tab 1', 'Totals']);
    const category = saved.parameters.find((p) => p.name === 'Category')!;
    const state = saved.parameters.find((p) => p.name === 'State')!;
    expect(category).toMatchObject({ type: 'category', slug: 'category', filteringParameters: [state.id] });
    const questions = saved.dashcards.filter((d) => d.card_id !== null);
    expect(questions).toHaveLength(3);
    expect(saved.dashcards).toHaveLength(4);
    const perCategory = questions.find(
      (d) => d.card_id !== null && (d as { visualization_settings?: Record<string, unknown> }).visualization_settings?.click_behavior,
    );
    expect(perCategory).toBeDefined();
    for (const dc of questions) {
      expect(dc.parameter_mappings).toContainEqual(
        expect.objectContaining({ parameter_id: category.id, card_id: dc.card_id, target: ['dimension', ['field', categoryField, null]] }),
      );
    }
    const onTotals = questions.filter((d) => d.dashboard_tab_id === saved.tabs[1].id);
    expect(onTotals).toHaveLength(1);
    expect(stateField).toBeGreaterThan(0);
  });

  it("after a reload, each card's rows are those of the dashcard query with the filter's value", async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    const saved = await dashboard();
    const category = saved.parameters.find((p) => p.name === 'Category')!;
    const filter = page.getByRole('group', { name: 'Filters' });
    await filter.getByLabel('Category').click();
    // Every category until a state narrows them (linked filter).
    await page.getByRole('option', { name: 'Toys' }).waitFor();
    await page.keyboard.press('Escape');
    // Set by the card's click behaviour: a click on "Home" in the category card.
    await ready(card('Products per category'));
    await card('Products per category').getByRole('cell', { name: 'Home' }).click();

    const rowsOf = async (dc: Dashcard) =>
      (
        (
          await http()
            .post(`/api/dashboard/${dash}/dashcard/${dc.id}/card/${dc.card_id}/query`)
            .set(auth(admin))
            .send({ parameters: [{ id: category.id, type: category.type, value: ['Home'] }] })
            .expect(202)
        ).body as QueryAnswer
      ).data.rows;
    const byName = async (name: string) => {
      const id = Number(await card(name).getAttribute('data-dashcard-id'));
      return saved.dashcards.find((d) => d.id === id)!;
    };

    await until(
      async () =>
        (await card('All products').textContent())!.includes('Rug') && !(await card('All products').textContent())!.includes('Pen'),
    );
    for (const name of ['All products', 'Products per category']) {
      await ready(card(name));
      const rows = await rowsOf(await byName(name));
      expect(rows.length).toBeGreaterThan(0);
      const text = (await card(name).textContent()) ?? '';
      for (const row of rows) for (const cell of row) expect(text).toContain(String(cell));
    }
    expect((await rowsOf(await byName('All products'))).map((r) => r[1])).toEqual(['Lamp', 'Rug', 'Vase']);
    await reviewPage(page, 'dashboard-filtered');

    await page.getByRole('tab', { name: 'Totals' }).click();
    await ready(card('Product count'));
    const count = await rowsOf(await byName('Product count'));
    expect(count).toEqual([[3]]);
    await until(async () => ((await card('Product count').textContent()) ?? '').includes('3'));

    // The state filter narrows the category's choices to that state's.
    await page.getByRole('tab', { name: 'Tab 1' }).click();
    await filter.getByLabel('State').click();
    await page.getByRole('option', { name: 'TX' }).click();
    await page.keyboard.press('Escape');
    await filter.getByLabel('Category').click();
    await page.getByRole('option', { name: 'Toys' }).waitFor();
    await until(async () => (await page.getByRole('option', { name: 'Office' }).count()) === 0);
    await page.keyboard.press('Escape');
  });

  it('opens a 20-card dashboard: times to the first card drawn and to all drawn', async () => {
    const cards = (await get<Array<{ id: number; name: string }>>('/api/card')).filter((c) => c.name !== 'Product count');
    const big = await makeDashboard(app.t, admin, { name: 'Twenty cards' });
    const dashcards = Array.from({ length: 20 }, (_, i) =>
      newDashcard(-(i + 1), cards[i % cards.length].id, { col: (i % 2) * 12, row: Math.floor(i / 2) * 6, size_x: 12, size_y: 6 }),
    );
    await http().put(`/api/dashboard/${big.id}`).set(auth(admin)).send({ dashcards }).expect(200);
    // Drawn: the visualization says so itself (data-state="ready" once its rows are on screen).
    const drawn = (n: number) =>
      page.waitForFunction(
        `document.querySelectorAll('[data-dashcard-id] [data-testid="visualization"][data-state="ready"]').length >= ${n}`,
        undefined,
        { polling: 'raf', timeout: 60_000 },
      );
    const started = Date.now();
    await page.goto(`${app.base}/dashboard/${big.id}-twenty-cards`);
    await drawn(1);
    const first = Date.now() - started;
    await drawn(20);
    const all = Date.now() - started;
    console.log(`20-card dashboard: first card drawn after ${first} ms, all 20 after ${all} ms`);
    expect(all).toBeLessThan(30_000);
  });

  it('duplicates the dashboard with its questions, then moves the copy to the trash', async () => {
    await page.goto(`${app.base}/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    // Auto-refresh: the chosen period shows on its button.
    await page.getByRole('button', { name: 'Auto-refresh' }).click();
    await page.getByRole('menuitem', { name: 'Every 5 minutes' }).click();
    await page.getByRole('button', { name: 'Auto-refresh' }).filter({ hasText: 'Refresh: 5 minutes' }).waitFor();

    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Duplicate "Shop overview"' });
    await dialog.getByLabel('Name').fill('Shop overview, copy');
    await dialog.getByLabel('Also duplicate the questions').check();
    await dialog.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'Shop overview, copy', level: 1 }).waitFor();
    const copyId = Number(/\/dashboard\/(\d+)/.exec(page.url())![1]);
    const copy = await get<Dashboard>(`/api/dashboard/${copyId}`);
    const original = await dashboard();
    expect(copy.dashcards).toHaveLength(original.dashcards.length);
    const originalCards = new Set(original.dashcards.map((d) => d.card_id).filter((id) => id !== null));
    // A deep copy: its questions are copies, not the original ones.
    expect(copy.dashcards.filter((d) => d.card_id !== null).every((d) => !originalCards.has(d.card_id!))).toBe(true);

    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await page
      .getByRole('dialog', { name: 'Move "Shop overview, copy" to the trash?' })
      .getByRole('button', { name: 'Move to trash' })
      .click();
    await until(async () => (await get<{ archived: boolean }>(`/api/dashboard/${copyId}`)).archived === true);
  });

  it('combines two questions on one chart and drags the card to the right', async () => {
    const charts = await makeDashboard(app.t, admin, { name: 'Charts' });
    await http()
      .put(`/api/dashboard/${charts.id}`)
      .set(auth(admin))
      .send({ dashcards: [newDashcard(-1, barCard, { size_x: 12, size_y: 8 })] })
      .expect(200);
    await page.goto(`${app.base}/dashboard/${charts.id}`);
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Settings of Count by category' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings of Count by category' });
    await settings.getByLabel('Combine with').click();
    await page.getByRole('option', { name: 'Price by category' }).click();
    await settings.getByLabel('Combine with').press('Escape');
    await settings.getByRole('button', { name: 'Done' }).click();
    // Dragged by its handle to the right half of the grid.
    const handle = page.getByRole('button', { name: 'Move Count by category (drag)' });
    const box = (await handle.boundingBox())!;
    const grid = (await page.getByTestId('dashboard-grid').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(box.x + box.width / 2 + (grid.width / 2) * (i / 10), box.y + box.height / 2);
    await page.mouse.up();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    const saved = await get<{ dashcards: Array<{ col: number; series: Array<{ id: number; name: string }> }> }>(
      `/api/dashboard/${charts.id}`,
    );
    expect(saved.dashcards[0].series.map((c) => c.name)).toEqual(['Price by category']);
    expect(saved.dashcards[0].col).toBeGreaterThanOrEqual(10);
    const chart = card('Count by category');
    await until(async () => (await chart.getByTestId('visualization').getAttribute('data-state')) === 'ready');
    await chart.getByText('Price by category').first().waitFor();
  });

  it('an action button runs its action with the values typed in its form', async () => {
    const shop = await actionWarehouse(app.t, admin, 'sqlite', null);
    const action = (
      await http()
        .post('/api/action')
        .set(auth(admin))
        .send(queryActionBody(shop.model, shop.db, 'UPDATE items SET qty = {{qty}} WHERE id = {{id}}', { id: 'number', qty: 'number' }))
        .expect(200)
    ).body as { id: number; name: string };
    const stock = await makeDashboard(app.t, admin, { name: 'Stock' });
    await page.goto(`${app.base}/dashboard/${stock.id}`);
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByRole('menuitem', { name: 'Action button' }).click();
    await page.getByRole('dialog', { name: 'Add an action button' }).getByRole('button', { name: action.name }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Edit dashboard' }).waitFor();
    const saved = await get<{ dashcards: Array<{ action_id: number | null }> }>(`/api/dashboard/${stock.id}`);
    expect(saved.dashcards.map((d) => d.action_id)).toEqual([action.id]);

    await page
      .getByRole('region', { name: `Action ${action.name}` })
      .getByRole('button', { name: action.name })
      .click();
    const form = page.getByRole('dialog', { name: action.name });
    await form.getByLabel('id', { exact: true }).fill('1');
    await form.getByLabel('qty', { exact: true }).fill('9');
    await reviewPage(page, 'dashboard-action-form');
    await form.getByRole('button', { name: action.name }).click();
    await form.waitFor({ state: 'detached' });
    await until(async () => JSON.stringify(await shop.rows('SELECT qty FROM items WHERE id = 1')) === JSON.stringify([[9]]));
  });

  it('a plain duplicate keeps the same questions, and Move files the dashboard in a collection', async () => {
    const archive = await makeCollection(app.t, admin, { name: 'Archive shelf' });
    await page.goto(`${app.base}/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Duplicate "Shop overview"' });
    await dialog.getByLabel('Name').fill('Shop overview, same questions');
    expect(await dialog.getByLabel('Also duplicate the questions').isChecked()).toBe(false);
    await dialog.getByRole('button', { name: 'Duplicate' }).click();
    await page.getByRole('heading', { name: 'Shop overview, same questions', level: 1 }).waitFor();
    const copyId = Number(/\/dashboard\/(\d+)/.exec(page.url())![1]);
    const cardsOf = async (id: number) =>
      (await get<Dashboard>(`/api/dashboard/${id}`)).dashcards.map((d) => d.card_id).filter((c) => c !== null);
    // Not a deep copy: the copy's cards show the original questions.
    expect((await cardsOf(copyId)).sort()).toEqual((await cardsOf(dash)).sort());

    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Move', exact: true }).click();
    const picker = page.getByRole('dialog', { name: 'Move "Shop overview, same questions"' });
    await picker.getByRole('button', { name: 'Archive shelf' }).click();
    await picker.getByText('Chosen: Archive shelf').waitFor();
    await picker.getByRole('button', { name: 'Move', exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    await until(async () => (await get<{ collection_id: number | null }>(`/api/dashboard/${copyId}`)).collection_id === archive.id);
  });

  it("an update button's form starts from the row the filter names, and saves what is changed", async () => {
    const shop = await actionWarehouse(app.t, admin, 'sqlite', null);
    const update = (
      await http()
        .post('/api/action')
        .set(auth(admin))
        .send({ name: 'Update item', type: 'implicit', kind: 'row/update', model_id: shop.model })
        .expect(200)
    ).body as { id: number };
    const items = await makeDashboard(app.t, admin, {
      name: 'Items desk',
      parameters: [{ id: 'item', slug: 'item', name: 'Item', type: 'id' }],
    });
    await http()
      .put(`/api/dashboard/${items.id}`)
      .set(auth(admin))
      .send({
        dashcards: [
          newDashcard(-1, null, {
            action_id: update.id,
            parameter_mappings: [{ parameter_id: 'item', target: ['variable', ['template-tag', 'id']] }],
            visualization_settings: { 'button.label': 'Edit item' },
          }),
        ],
      })
      .expect(200);
    // The filter's value comes from the link, as a filtered dashboard is shared.
    await page.goto(`${app.base}/dashboard/${items.id}?item=2`);
    await page.getByRole('region', { name: 'Action Edit item' }).getByRole('button', { name: 'Edit item' }).click();
    const form = page.getByRole('dialog', { name: 'Edit item' });
    await until(async () => (await form.getByLabel('Name', { exact: true }).inputValue()) === 'pear');
    expect(await form.getByLabel('Qty', { exact: true }).inputValue()).toBe('3');
    // The key comes from the filter: the form does not ask for it.
    expect(await form.getByLabel('ID', { exact: true }).count()).toBe(0);
    await form.getByLabel('Qty', { exact: true }).fill('8');
    await form.getByRole('button', { name: 'Edit item' }).click();
    await form.waitFor({ state: 'detached' });
    await until(
      async () =>
        JSON.stringify(await shop.rows('SELECT id, name, qty FROM items ORDER BY id')) ===
        JSON.stringify([
          [1, 'apple', 5],
          [2, 'pear', 8],
        ]),
    );
    await shop.wh.drop();
  });

  it('reverts to the revision before the save', async () => {
    await page.goto(`${app.base}/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Shop overview', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More dashboard actions' }).click();
    await page.getByRole('menuitem', { name: 'Revision history' }).click();
    const list = page.getByRole('list', { name: 'Revisions' });
    await list.getByRole('listitem').first().waitFor();
    await reviewPage(page, 'dashboard-revisions');
    // The oldest: the dashboard as it was created, empty.
    await list
      .getByRole('button', { name: /^Revert/ })
      .last()
      .click();
    await until(async () => (await dashboard()).dashcards.length === 0);
    expect((await dashboard()).parameters).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByText('This dashboard is empty.').waitFor();
  });
});
