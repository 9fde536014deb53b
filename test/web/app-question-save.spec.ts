import ExcelJS from 'exceljs';
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, makeUser, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface CardBody {
  name: string;
  type: string;
  dataset_query: { native: { query: string } };
  result_metadata: Array<{ name: string; display_name: string }> | null;
}

/** Saving and revising a question: save, replace, the revision history and a revert, a model with a renamed column. */
describeBrowser('saving and revising a question', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let db: number;
  let cardId: number;
  const http = () => app.t.http();
  const FIRST = 'SELECT id, title FROM products ORDER BY id';
  const SECOND = 'SELECT id, title, price FROM products ORDER BY id';
  const card = async () => (await http().get(`/api/card/${cardId}`).set(auth(admin)).expect(200)).body as CardBody;
  const editor = () => page.getByRole('textbox', { name: 'SQL query' });
  const headers = () => page.getByRole('grid', { name: 'Results' }).getByRole('columnheader').allTextContents();
  const runQuery = async () => {
    const done = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Run query' }).click();
    await done;
  };
  const menu = async (item: string) => {
    await page.getByRole('button', { name: /^More actions for this/ }).click();
    await page.getByRole('menuitem', { name: item, exact: true }).click();
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const sqlite = await e2eWarehouse('sqlite', app.dataDir, {
      statements: [
        'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, price REAL)',
        "INSERT INTO products VALUES (1, 'Lamp', 20), (2, 'Desk', 150), (3, 'Chair', 80)",
      ],
    });
    db = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200))
      .body.id;
    await waitForSync(app.t, admin, db);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('saves a new question into a collection', async () => {
    page = await app.open(`/question/new?type=native&database=${db}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await editor().fill(FIRST);
    await runQuery();
    await until(async () => (await headers()).join() === 'id,title');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save new question' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    // A name is required: the error shows at the field.
    await dialog.getByText('Enter a name for the question.').waitFor();
    await dialog.getByLabel('Name').fill('Product list');
    await dialog.getByLabel('Description').fill('Every product');
    await dialog.getByRole('button', { name: 'Change collection' }).click();
    const picker = page.getByRole('dialog', { name: 'Where the question goes' });
    await picker.getByRole('button', { name: 'Your personal collection' }).click();
    await picker.getByRole('button', { name: 'Choose' }).click();
    await dialog.getByText(/Personal Collection/).waitFor();
    await reviewPage(page, 'question-save-dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(() => /^\/question\/\d+-product_list$/.test(pathOf(page)));
    cardId = Number(/\/question\/(\d+)/.exec(pathOf(page))![1]);
    const saved = await card();
    const me = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body as { personal_collection_id: number };
    expect(saved).toMatchObject({ name: 'Product list', description: 'Every product', collection_id: me.personal_collection_id });
    expect(saved.dataset_query.native.query).toBe(FIRST);
  });

  it('downloads the saved question as CSV, the file the API answers', async () => {
    await page.getByRole('button', { name: 'Download results' }).click();
    const file = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '.csv' }).click();
    const download = await file;
    expect(download.suggestedFilename()).toMatch(/^Product list_.*\.csv$/);
    const text = fs.readFileSync((await download.path())!, 'utf8');
    const api = await http().post(`/api/card/${cardId}/query/csv`).set(auth(admin)).send({ parameters: [], format_rows: true }).expect(200);
    expect(text).toBe(api.text);
    expect(text.split(/\r?\n/)[1]).toContain('Lamp');
  });

  it('downloads .xlsx and .json: the JSON is what the API answers, the workbook holds the rows', async () => {
    const save = async (format: string) => {
      await page.getByRole('button', { name: 'Download results' }).click();
      const file = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: `.${format}` }).click();
      const download = await file;
      expect(download.suggestedFilename()).toMatch(new RegExp(`^Product list_.*\\.${format}$`));
      return (await download.path())!;
    };
    const json = JSON.parse(fs.readFileSync(await save('json'), 'utf8')) as unknown;
    const api = await http()
      .post(`/api/card/${cardId}/query/json`)
      .set(auth(admin))
      .send({ parameters: [], format_rows: true })
      .expect(200);
    expect(json).toEqual(api.body);
    // Formatted, as the page downloads it: values as they are shown.
    expect(json).toEqual([
      { id: '1', title: 'Lamp' },
      { id: '2', title: 'Desk' },
      { id: '3', title: 'Chair' },
    ]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(await save('xlsx'));
    const rows = book.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(rows.map((r) => r.slice(1))).toEqual([
      ['id', 'title'],
      [1, 'Lamp'],
      [2, 'Desk'],
      [3, 'Chair'],
    ]);
  });

  it('edits and replaces the original, then reverts to the first revision', async () => {
    await editor().fill(SECOND);
    await runQuery();
    await until(async () => (await headers()).join() === 'id,title,price');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save changes to Product list' });
    expect(await dialog.getByRole('radio', { name: /Replace original question/ }).isChecked()).toBe(true);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await card()).dataset_query.native.query).toBe(SECOND);

    await menu('Revision history');
    const history = page.getByRole('list', { name: 'Revisions' });
    await until(async () => (await history.getByRole('listitem').count()) === 2);
    await reviewPage(page, 'question-revisions');
    const revisions = (await http().get('/api/revision').query({ entity: 'card', id: cardId }).set(auth(admin)).expect(200)).body as Array<{
      is_creation: boolean;
    }>;
    expect(revisions.map((r) => r.is_creation)).toEqual([false, true]);
    await history
      .getByRole('listitem')
      .last()
      .getByRole('button', { name: /Revert/ })
      .click();
    await until(async () => (await card()).dataset_query.native.query === FIRST);
    // The page starts over from what the server holds now.
    await until(async () => (await editor().textContent()) === FIRST);
  });

  it('turns the question into a model and renames a column', async () => {
    await menu('Turn into a model');
    await until(() => /^\/model\/\d+-product_list$/.test(pathOf(page)));
    expect((await card()).type).toBe('model');
    await page.getByText('Model', { exact: true }).waitFor();

    await menu('Edit column metadata');
    const drawer = page.getByRole('dialog', { name: 'Column metadata' });
    await drawer.getByLabel('Display name of title').fill('Product name');
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'detached' });
    const model = await card();
    expect(model.result_metadata?.map((c) => [c.name, c.display_name])).toEqual([
      ['id', expect.any(String)],
      ['title', 'Product name'],
    ]);
    // The model's results show the new name.
    await until(async () => (await headers()).join() === 'id,Product name');
    await reviewPage(page, 'question-model');
    // Renamed in place: the heading becomes a field, Enter saves the name.
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Product catalog');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Product catalog', level: 1 }).waitFor();
    await until(async () => (await card()).name === 'Product catalog');

    // Leaving with an unsaved edit asks first; staying keeps the edit.
    await editor().fill('SELECT 1 AS one');
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Our analytics' }).click();
    const ask = page.getByRole('dialog', { name: 'Discard your changes?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(pathOf(page)).toMatch(/^\/model\/\d+-product_list$/);
    expect(await editor().textContent()).toBe('SELECT 1 AS one');
    await page.getByRole('navigation', { name: 'Collections' }).getByRole('link', { name: 'Our analytics' }).click();
    await ask.getByRole('button', { name: 'Discard changes' }).click();
    await until(() => pathOf(page).startsWith('/collection/root'));
  });
  it('adds the saved question to a dashboard below its cards, and opens the dashboard', async () => {
    const other = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Prices',
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', database: db, native: { query: 'SELECT price FROM products' } },
        })
        .expect(200)
    ).body as { id: number };
    const board = (await http().post('/api/dashboard').set(auth(admin)).send({ name: 'Shop board' }).expect(200)).body as { id: number };
    await http()
      .put(`/api/dashboard/${board.id}`)
      .set(auth(admin))
      .send({ dashcards: [{ id: -1, card_id: other.id, row: 0, col: 0, size_x: 12, size_y: 4 }] })
      .expect(200);

    await page.goto(`${app.base}/model/${cardId}`);
    await menu('Add to a dashboard');
    const dialog = page.getByRole('dialog', { name: /^Add .* to a dashboard$/ });
    await dialog.getByRole('textbox', { name: 'Search dashboards' }).fill('Shop');
    await dialog.getByRole('list', { name: 'Dashboards' }).getByRole('button', { name: 'Shop board' }).click();
    await until(() => pathOf(page).startsWith(`/dashboard/${board.id}`));
    const held = (await http().get(`/api/dashboard/${board.id}`).set(auth(admin)).expect(200)).body as {
      dashcards: Array<{ card_id: number; row: number; col: number }>;
    };
    expect(held.dashcards.map((d) => [d.card_id, d.row, d.col])).toEqual([
      [other.id, 0, 0],
      [cardId, 4, 0],
    ]);
  });

  it("offers downloads as the viewer's permission says, before any download is refused", async () => {
    const prices = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'All prices',
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', database: db, native: { query: 'SELECT title, price FROM products ORDER BY id' } },
        })
        .expect(200)
    ).body as { id: number };
    const setDownload = async (download: 'none' | 'limited') => {
      const graph = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body as { revision: number };
      const access = { data: 'unrestricted', native: 'write', download: { schemas: download } };
      await http()
        .put('/api/permissions/graph')
        .set(auth(admin))
        .send({ revision: graph.revision, groups: { 1: { [db]: access } } })
        .expect(200);
    };
    const viewer = await makeUser(app.t, admin);
    await setDownload('none');
    const other = await app.open(`/question/${prices.id}`);
    await other.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(other, viewer.email, viewer.password);
    const results = other.getByRole('grid', { name: 'Results' });
    await results.getByText('Lamp').waitFor();
    expect(await other.getByRole('button', { name: 'Download results' }).count()).toBe(0);

    await setDownload('limited');
    await other.reload();
    await results.getByText('Lamp').waitFor();
    await other.getByRole('button', { name: 'Download results' }).click();
    await other.getByText('You may download up to 10,000 rows.').waitFor();
    expect(await other.getByRole('menuitem', { name: '.csv' }).isVisible()).toBe(true);
  });

  it('formats a column: the table shows the price as currency, and the question keeps it in its column settings', async () => {
    const priced = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Prices',
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', database: db, native: { query: 'SELECT title, price FROM products ORDER BY id' } },
        })
        .expect(200)
    ).body as { id: number };
    await page.goto(`${app.base}/question/${priced.id}`);
    await until(async () => (await headers()).join() === 'title,price');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Visualization settings' });
    await panel.getByRole('textbox', { name: 'Column to format' }).click();
    await page.getByRole('option', { name: 'price', exact: true }).click();
    await panel.getByRole('textbox', { name: 'Style' }).click();
    await page.getByRole('option', { name: 'Currency' }).click();
    await panel.getByLabel('Decimal places').fill('0');
    await panel.getByLabel('Column title').fill('Price');
    await until(async () => (await headers()).join() === 'title,Price ($)');
    const cells = page.getByRole('grid', { name: 'Results' }).locator('[role="gridcell"][aria-colindex="2"]');
    await until(async () => (await cells.allTextContents()).join() === '20,150,80');
    await reviewPage(page, 'question-column-format');
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save changes to Prices' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await http().get(`/api/card/${priced.id}`).set(auth(admin)).expect(200)).body as {
      visualization_settings: Record<string, unknown>;
    };
    expect(saved.visualization_settings.column_settings).toEqual({
      '["name","price"]': { number_style: 'currency', currency: 'USD', decimals: 0, column_title: 'Price' },
    });
  });

  it("from the question's menu: duplicate it, bookmark the copy, move it, and move it to the trash", async () => {
    const original = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Cheap products',
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', database: db, native: { query: 'SELECT title FROM products WHERE price < 100' } },
        })
        .expect(200)
    ).body as { id: number };
    await page.goto(`${app.base}/question/${original.id}`);
    await page.getByRole('grid', { name: 'Results' }).getByText('Lamp').waitFor();
    await menu('Duplicate');
    const dialog = page.getByRole('dialog', { name: 'Save new question' });
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Cheap products (copy)');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(() => /^\/question\/\d+-/.test(pathOf(page)) && !pathOf(page).startsWith(`/question/${original.id}-`));
    const copyId = Number(/\/question\/(\d+)/.exec(pathOf(page))![1]);
    const copy = async () =>
      (await http().get(`/api/card/${copyId}`).set(auth(admin)).expect(200)).body as CardBody & {
        collection_id: number | null;
        archived: boolean;
      };
    expect(await copy()).toMatchObject({ name: 'Cheap products (copy)', collection_id: null, archived: false });
    expect((await copy()).dataset_query.native.query).toBe('SELECT title FROM products WHERE price < 100');

    await menu('Bookmark');
    const bookmarked = async () =>
      ((await http().get('/api/bookmark').set(auth(admin)).expect(200)).body as Array<{ type: string; item_id: number }>).some(
        (b) => b.type === 'card' && b.item_id === copyId,
      );
    await until(bookmarked);
    // The menu now offers the way back.
    await page.getByRole('button', { name: /^More actions for this/ }).click();
    await page.getByRole('menuitem', { name: 'Remove from bookmarks' }).waitFor();
    await page.keyboard.press('Escape');

    await menu('Move');
    const picker = page.getByRole('dialog', { name: 'Move Cheap products (copy)' });
    await picker.getByRole('button', { name: 'Your personal collection' }).click();
    await picker.getByRole('button', { name: 'Move', exact: true }).click();
    const me = (await http().get('/api/user/current').set(auth(admin)).expect(200)).body as { personal_collection_id: number };
    await until(async () => (await copy()).collection_id === me.personal_collection_id);

    await menu('Move to trash');
    await until(async () => (await copy()).archived === true);
    await until(() => pathOf(page).startsWith(`/collection/${me.personal_collection_id}`));
    // The original is untouched.
    const first = (await http().get(`/api/card/${original.id}`).set(auth(admin)).expect(200)).body as { archived: boolean };
    expect(first.archived).toBe(false);
  });

  it("sets a series' title, colour and display in the chart's settings: drawn so, and kept in series_settings", async () => {
    const chart = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Price and double',
          display: 'bar',
          visualization_settings: { 'graph.dimensions': ['title'], 'graph.metrics': ['price', 'doubled'] },
          dataset_query: {
            type: 'native',
            database: db,
            native: { query: 'SELECT title, price, price * 2 AS doubled FROM products ORDER BY id' },
          },
        })
        .expect(200)
    ).body as { id: number };
    await page.goto(`${app.base}/question/${chart.id}`);
    const drawn = page.getByTestId('visualization');
    await until(async () => (await drawn.getAttribute('data-state')) === 'ready');
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Visualization settings' });
    const series = panel.getByRole('group', { name: 'Series' });
    await series.getByRole('textbox', { name: 'Title of price' }).fill('List price');
    await series.getByRole('textbox', { name: 'Colour of price' }).fill('#d62728');
    await series.getByRole('textbox', { name: 'Show doubled as' }).click();
    await page.getByRole('option', { name: 'Line', exact: true }).click();
    // Drawn as set: the legend names the series anew, and its bars take the colour.
    await drawn.getByText('List price').first().waitFor();
    await until(async () =>
      drawn
        .locator('svg')
        .evaluate((svg) => [...svg.querySelectorAll('path')].some((p) => (p.getAttribute('fill') ?? '').toLowerCase() === '#d62728')),
    );
    await reviewPage(page, 'question-series-settings');
    await panel.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save changes to Price and double' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const saved = (await http().get(`/api/card/${chart.id}`).set(auth(admin)).expect(200)).body as {
      visualization_settings: Record<string, unknown>;
    };
    expect(saved.visualization_settings.series_settings).toEqual({
      price: { title: 'List price', color: '#d62728' },
      doubled: { display: 'line' },
    });
  });
});
