import type { Page, Request } from 'playwright-core';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface Answer {
  status: string;
  data: { rows: unknown[][]; cols: Array<{ name: string }> };
}

/** The SQL editor as an analyst uses it: a field filter variable wired to a field, a snippet, runs with and without a value. */
describeBrowser('the SQL editor', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let db: number;
  let categoryField: number;
  let cardId: number;
  const http = () => app.t.http();
  const SQL = 'SELECT id, title, category, price FROM products WHERE {{category}} AND ';

  /** One column of the results grid, top to bottom (`column` counts the data cells of a row; 1 is the title in SQL above). */
  const shownTitles = async (column = 1) =>
    // Read in one pass: counting the rows and then reading each by index waits 30 s for a row the grid removed meanwhile
    // (a re-run that shows fewer rows), which is how this flaked.
    page
      .getByRole('grid', { name: 'Results' })
      .getByRole('row')
      .evaluateAll((rows, i) => rows.slice(1).map((r) => r.querySelectorAll('[role="gridcell"]')[i]?.textContent ?? ''), column);
  /** The query the page posts to /api/dataset, answered by the same endpoint over HTTP. */
  const sameOverHttp = async (req: Request) => {
    const body = req.postDataJSON() as Record<string, unknown>;
    const res = await http().post('/api/dataset').set(auth(admin)).send(body).expect(202);
    return { body, answer: res.body as Answer };
  };
  const runWithCtrlEnter = async () => {
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/dataset') && r.method() === 'POST');
    await page.getByRole('textbox', { name: 'SQL query' }).press('Control+Enter');
    return sent;
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const products = Array.from({ length: 12 }, (_, i) => {
      const category = ['Gizmo', 'Widget', 'Doohickey'][i % 3];
      return `(${i + 1}, 'Product ${String(i + 1).padStart(2, '0')}', '${category}', ${10 + i * 10})`;
    });
    const sqlite = await e2eWarehouse('sqlite', app.dataDir, {
      statements: [
        'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, category TEXT, price REAL)',
        `INSERT INTO products VALUES ${products.join(', ')}`,
      ],
    });
    db = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200))
      .body.id;
    await waitForSync(app.t, admin, db);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ name: string; fields: Array<{ id: number; name: string }> }>;
    };
    categoryField = meta.tables.find((t) => t.name === 'products')!.fields.find((f) => f.name === 'category')!.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('creates a snippet and writes a query with a field filter and the snippet', async () => {
    page = await app.open(`/question/new?type=native&database=${db}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.waitFor();

    await page.getByRole('button', { name: 'Snippets' }).click();
    await page.getByRole('button', { name: 'New snippet' }).click();
    const dialog = page.getByRole('dialog', { name: 'New snippet' });
    await dialog.getByLabel('Snippet name').fill('cheap');
    await dialog.getByLabel('SQL').fill('price < 100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('list', { name: 'Snippets' }).getByText('cheap').waitFor();
    const snippets = (await http().get('/api/native-query-snippet').set(auth(admin)).expect(200)).body as Array<{
      name: string;
      content: string;
    }>;
    expect(snippets.map((s) => [s.name, s.content])).toEqual([['cheap', 'price < 100']]);
    // Edited in the same panel (PUT): a description.
    await page.getByRole('button', { name: 'Edit cheap' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit cheap' });
    await edit.getByLabel('Description').fill('Under 100');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('list', { name: 'Snippets' }).getByText('Under 100').waitFor();
    const edited = (await http().get('/api/native-query-snippet').set(auth(admin)).expect(200)).body as Array<{ description: string }>;
    expect(edited.map((s) => s.description)).toEqual(['Under 100']);

    await editor.fill(SQL);
    await page.getByRole('button', { name: 'Insert cheap' }).click();
    await editor.press('End');
    await page.keyboard.type(' ORDER BY id');
    expect(await editor.textContent()).toBe(`${SQL}{{snippet: cheap}} ORDER BY id`);

    // The new variable opened its panel: make it a field filter on Products -> Category.
    await page.getByRole('button', { name: 'Variables' }).click();
    await page.getByRole('textbox', { name: 'Type of category' }).click();
    await page.getByRole('option', { name: 'Field filter' }).click();
    await page.getByRole('textbox', { name: 'Field of category' }).fill('Category');
    await page.getByRole('option', { name: 'Products → Category' }).click();
    await page.getByRole('textbox', { name: 'Filter widget of category' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Filter widget of category' }).inputValue()).toBe('Is');
    await reviewPage(page, 'question-sql-editor');
  });

  it('runs without a value: the field filter drops out, the snippet applies', async () => {
    const req = await runWithCtrlEnter();
    const { body, answer } = await sameOverHttp(req);
    expect((body.native as { 'template-tags': Record<string, unknown> })['template-tags']).toMatchObject({
      category: { type: 'dimension', dimension: ['field', categoryField, null], 'widget-type': 'string/=' },
      'snippet: cheap': { type: 'snippet', 'snippet-name': 'cheap' },
    });
    expect(body.parameters).toEqual([]);
    expect(answer.status).toBe('completed');
    expect(answer.data.rows).toHaveLength(9);
    await until(async () => (await shownTitles()).length === 9);
    expect(await shownTitles()).toEqual(answer.data.rows.map((r) => r[1]));
    await page.getByText(/^Showing 9 rows/).waitFor();
  });

  it('runs with a value from the filter bar: sent as a dimension parameter', async () => {
    // The field's values are offered: pick one.
    await page.getByRole('form', { name: 'Filters' }).getByRole('textbox', { name: 'Category' }).click();
    await page.getByRole('option', { name: 'Gizmo' }).click();
    await page.keyboard.press('Escape');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/dataset') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Run query' }).click();
    const { body, answer } = await sameOverHttp(await sent);
    expect(body.parameters).toEqual([
      expect.objectContaining({ type: 'string/=', target: ['dimension', ['template-tag', 'category']], value: ['Gizmo'] }),
    ]);
    expect(answer.data.rows.map((r) => r[2])).toEqual(['Gizmo', 'Gizmo', 'Gizmo']);
    await until(async () => (await shownTitles()).length === 3);
    expect(await shownTitles()).toEqual(answer.data.rows.map((r) => r[1]));
  });

  it('saves the question and reopens it with its variable and snippet', async () => {
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save new question' });
    await dialog.getByLabel('Name').fill('Cheap products');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(() => /^\/question\/\d+-cheap_products$/.test(pathOf(page)));
    cardId = Number(/\/question\/(\d+)/.exec(pathOf(page))![1]);
    const card = (await http().get(`/api/card/${cardId}`).set(auth(admin)).expect(200)).body as {
      name: string;
      dataset_query: { native: { query: string; 'template-tags': Record<string, { type: string; dimension?: unknown }> } };
    };
    expect(card.name).toBe('Cheap products');
    expect(card.dataset_query.native.query).toBe(`${SQL}{{snippet: cheap}} ORDER BY id`);
    expect(card.dataset_query.native['template-tags'].category).toMatchObject({
      type: 'dimension',
      dimension: ['field', categoryField, null],
    });

    // Reopened: it runs as saved (POST /api/card/:id/query), the same rows as the API answers.
    const ran = page.waitForResponse((r) => r.url().endsWith(`/api/card/${cardId}/query`));
    await page.reload();
    await ran;
    await page.getByRole('heading', { name: 'Cheap products', level: 1 }).waitFor();
    const saved = (await http().post(`/api/card/${cardId}/query`).set(auth(admin)).send({}).expect(202)).body as Answer;
    await until(async () => (await shownTitles()).length === saved.data.rows.length);
    expect(await shownTitles()).toEqual(saved.data.rows.map((r) => r[1]));
    expect(await page.getByRole('textbox', { name: 'SQL query' }).textContent()).toBe(card.dataset_query.native.query);
    await reviewPage(page, 'question-sql-saved');
  });

  it('shows 2,000 rows virtualized: sorts them, opens a row, draws a chart', async () => {
    await page.goto(`${app.base}/question/new?type=native&database=${db}`);
    const sql = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 2000) SELECT x AS n, x % 7 AS mod7 FROM n';
    await page.getByRole('textbox', { name: 'SQL query' }).fill(sql);
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/dataset'));
    await page.getByRole('button', { name: 'Run query' }).click();
    await answered;
    const start = Date.now();
    const grid = page.getByRole('grid', { name: 'Results' });
    await grid.getByRole('gridcell', { name: '1', exact: true }).first().waitFor();
    const drawnIn = Date.now() - start;
    await page.getByText(/^Showing 2,000 rows/).waitFor();
    expect(await grid.getAttribute('aria-rowcount')).toBe('2001');
    // Only what is in view is in the page.
    expect(await grid.getByRole('row').count()).toBeLessThan(60);
    await grid.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await grid.locator('[aria-rowindex="2001"]').waitFor();
    // Sorting by a column: ascending puts the multiples of 7 first.
    await grid.getByRole('columnheader', { name: 'mod7' }).getByRole('button').click();
    expect(await grid.getByRole('columnheader', { name: /mod7/ }).getAttribute('aria-sort')).toBe('ascending');
    await grid.evaluate((el) => el.scrollTo(0, 0));
    const first = grid.locator('[aria-rowindex="2"]');
    await until(async () => (await first.getByRole('gridcell').nth(1).textContent()) === '0');
    await first.click();
    const detail = page.getByRole('dialog', { name: /^Row \d+$/ });
    expect(await detail.getByRole('table', { name: 'Object detail' }).getByRole('row', { name: /mod7/ }).textContent()).toContain('0');
    await reviewPage(page, 'question-results-detail');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    // Another visualization, drawn by web/src/visualizations.
    await page.getByRole('textbox', { name: 'Visualization' }).click();
    await page.getByRole('option', { name: 'Line' }).click();
    await page.locator('[data-testid="visualization"][data-display="line"][data-state="ready"]').waitFor();
    console.log(`2,000 rows: first rows drawn ${drawnIn} ms after the answer arrived`);
  });

  it('cancels a running query', async () => {
    await page.goto(`${app.base}/question/new?type=native&database=${db}`);
    const slow = 'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 200000000) SELECT count(*) FROM n';
    await page.getByRole('textbox', { name: 'SQL query' }).fill(slow);
    const failed = page.waitForEvent('requestfailed', (r) => r.url().endsWith('/api/dataset'));
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('button', { name: 'Cancel query' }).click();
    await failed;
    await page.getByRole('alert').getByText('The query was cancelled.').waitFor();
    // The editor runs again at once (the server killed the statement rather than queueing behind it).
    await page.getByRole('textbox', { name: 'SQL query' }).fill('SELECT 42 AS answer');
    await page.getByRole('button', { name: 'Run query' }).click();
    await page.getByRole('grid', { name: 'Results' }).getByRole('gridcell', { name: '42' }).waitFor();
  });

  it('runs only the selected text with Ctrl+Enter, and shows the error under the editor', async () => {
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.fill('SELECT 7 AS seven FROM no_such_table');
    const failing = page.waitForResponse((r) => r.url().endsWith('/api/dataset'));
    await editor.press('Control+Enter');
    const failed = (await (await failing).json()) as { status: string; error: string };
    expect(failed.status).toBe('failed');
    await page.getByRole('alert').filter({ hasText: 'The query failed' }).getByText(failed.error).waitFor();
    // Select "SELECT 7 AS seven" and run just that.
    await editor.press('Control+Home');
    for (let i = 0; i < 'SELECT 7 AS seven'.length; i++) await editor.press('Shift+ArrowRight');
    const req = await runWithCtrlEnter();
    expect((req.postDataJSON() as { native: { query: string } }).native.query).toBe('SELECT 7 AS seven');
    await page.getByRole('grid', { name: 'Results' }).getByRole('gridcell', { name: '7', exact: true }).waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'The query failed' }).count()).toBe(0);
  });

  it("completes the database's tables and columns", async () => {
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.fill('');
    await editor.pressSequentially('SELECT * FROM prod');
    // Picked with the mouse: CodeMirror ignores Enter for the first moments a list is open (its interaction delay).
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^products/ })
      .click();
    await until(async () => (await editor.textContent()) === 'SELECT * FROM products');
    await editor.pressSequentially(' WHERE products.cat');
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^category/ })
      .waitFor();
  });

  it('refers to a saved question with {{#id-slug}}', async () => {
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.fill(`SELECT count(*) AS n FROM {{#${cardId}-cheap-products}} AS c`);
    const req = await runWithCtrlEnter();
    const { body, answer } = await sameOverHttp(req);
    expect((body.native as { 'template-tags': Record<string, unknown> })['template-tags']).toMatchObject({
      [`#${cardId}-cheap-products`]: { type: 'card', 'card-id': cardId },
    });
    expect(answer.data.rows).toEqual([[9]]);
    await page.getByRole('grid', { name: 'Results' }).getByRole('gridcell', { name: '9', exact: true }).waitFor();
  });

  it('number and text variables: a default used when empty, an optional clause, values typed in the filter bar', async () => {
    await page.goto(`${app.base}/question/new?type=native&database=${db}`);
    const editor = page.getByRole('textbox', { name: 'SQL query' });
    await editor.fill('SELECT title, price FROM products WHERE price > {{min_price}} [[AND title LIKE {{pattern}}]] ORDER BY id');
    await page.getByRole('textbox', { name: 'Type of min_price' }).waitFor();
    await page.getByRole('textbox', { name: 'Type of min_price' }).click();
    await page.getByRole('option', { name: 'Number', exact: true }).click();
    await page.getByRole('textbox', { name: 'Default of min_price' }).fill('100');
    await page.getByRole('textbox', { name: 'Label of min_price' }).fill('Minimum price');
    expect(await page.getByRole('textbox', { name: 'Type of pattern' }).inputValue()).toBe('Text');

    // Nothing typed: the default applies and the optional clause drops out.
    const first = await sameOverHttp(await runWithCtrlEnter());
    expect((first.body.native as { 'template-tags': Record<string, unknown> })['template-tags']).toMatchObject({
      min_price: { type: 'number', default: 100, 'display-name': 'Minimum price' },
      pattern: { type: 'text' },
    });
    expect(first.body.parameters).toEqual([]);
    expect(first.answer.data.rows).toEqual([
      ['Product 11', 110],
      ['Product 12', 120],
    ]);
    await until(async () => (await shownTitles(0)).join() === 'Product 11,Product 12');

    // Typed in the filter bar: a number and a text value, each sent as its kind.
    const bar = page.getByRole('form', { name: 'Filters' });
    await bar.getByRole('textbox', { name: 'Minimum price' }).fill('30');
    await bar.getByRole('textbox', { name: 'pattern' }).fill('%1_');
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/dataset') && r.method() === 'POST');
    await bar.getByRole('textbox', { name: 'pattern' }).press('Enter');
    const second = await sameOverHttp(await sent);
    expect(second.body.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'number/=', target: ['variable', ['template-tag', 'min_price']], value: 30 }),
        expect.objectContaining({ type: 'category', target: ['variable', ['template-tag', 'pattern']], value: '%1_' }),
      ]),
    );
    expect(second.answer.data.rows.map((r) => r[0])).toEqual(['Product 10', 'Product 11', 'Product 12']);
    await until(async () => (await shownTitles(0)).join() === 'Product 10,Product 11,Product 12');
  });
});
