import Database from 'better-sqlite3';
import type { Locator, Page, Response } from 'playwright-core';
import { makeModel, nativeQuery } from '../support/card-factories';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, fieldDescription, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

interface Answer {
  status: string;
  error?: string;
  data: { rows: unknown[][]; cols: Array<{ name: string }> };
}
type Query = { 'lib/type': string; database: number; stages: Array<Record<string, unknown>> };

/** The question builder as an analyst uses it: steps picked with the mouse and keyboard, run, saved and reopened. */
describeBrowser('the notebook (question builder)', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let db: number;
  let ordersTable: number;
  let warehouseFile: string;
  const http = () => app.t.http();
  const step = (name: string) => page.getByRole('region', { name, exact: true });

  /** Picks an option of a Mantine Select (a combobox textbox whose listbox is portalled to the page's end). */
  const pick = async (scope: Locator, label: string, option: string) => {
    await scope.getByRole('textbox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  /** A new question in the notebook, its data step on `table` of the Shop database. */
  const newQuestionOn = async (table: string) => {
    await page.goto(`${app.base}/question/new?type=query`);
    await pick(step('Data'), 'Database', 'Shop');
    await pick(step('Data'), 'Table', table);
  };
  /** Runs the question with the header's Run button: the query the page sent and its answer from the page. */
  const run = async () => {
    const answered = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await page
      .getByRole('button', { name: /^Run( query)?$/ })
      .first()
      .click();
    return answerOf(await answered);
  };
  const answerOf = async (res: Response) => ({ sent: res.request().postDataJSON() as Query, answer: (await res.json()) as Answer });
  /** The same query sent to POST /api/dataset over HTTP. */
  const dataset = async (q: unknown) =>
    (
      await http()
        .post('/api/dataset')
        .set(auth(admin))
        .send(q as object)
        .expect(202)
    ).body as Answer;
  const listed = async (name: string) =>
    (await page.getByRole('list', { name }).getByRole('listitem').allTextContents()).map((t) =>
      t.replace(/×$/, '').replace(/Edit$/, '').trim(),
    );

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const categories = ['Gizmo', 'Widget', 'Doohickey'];
    const products = Array.from({ length: 6 }, (_, i) => `(${i + 1}, 'Product ${i + 1}', '${categories[i % 3]}', ${10 + i * 5})`);
    // Orders every ten days over the last two years, so "the previous 12 months" keeps about half of them.
    const now = Date.now();
    const orders = Array.from({ length: 72 }, (_, i) => {
      const at = new Date(now - (i * 10 + 3) * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      return `(${i + 1}, ${(i % 6) + 1}, ${20 + ((i * 7) % 50)}, ${(i % 4) + 1}, '${at}')`;
    });
    const sqlite = await e2eWarehouse('sqlite', app.dataDir, {
      statements: [
        'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT, category TEXT, price REAL)',
        'CREATE TABLE orders (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), total REAL, quantity INTEGER, ' +
          'created_at DATETIME)',
        `INSERT INTO products VALUES ${products.join(', ')}`,
        `INSERT INTO orders VALUES ${orders.join(', ')}`,
      ],
    });
    warehouseFile = sqlite.file!;
    db = (await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Shop', details: sqlite.details }).expect(200))
      .body.id;
    await waitForSync(app.t, admin, db);
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ id: number; name: string }>;
    };
    ordersTable = meta.tables.find((t) => t.name === 'orders')!.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('builds orders per month by product category over the last year, as a line chart, saves and reopens it', async () => {
    page = await app.open('/question/new?type=query');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await step('Data').waitFor();
    await pick(step('Data'), 'Database', 'Shop');
    await pick(step('Data'), 'Table', 'Orders');

    await step('Filter').getByRole('button', { name: 'Add filter' }).click();
    await pick(step('Filter'), 'Column to filter', 'Created At');
    expect(await step('Filter').getByRole('textbox', { name: 'Operator' }).inputValue()).toBe('Previous');
    await step('Filter').getByRole('textbox', { name: 'How many' }).fill('12');
    await pick(step('Filter'), 'Unit', 'months');
    await step('Filter').getByRole('button', { name: 'Add filter' }).click();
    expect(await listed('Filters')).toEqual(['Created At is in the previous 12 months']);

    const summarize = step('Summarize');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await pick(summarize, 'Group by column', 'Created At');
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    // The product's category through the foreign key, without a join step (the engine joins it: `source-field`).
    await pick(summarize, 'Group by column', 'Product → Category');
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    expect(await listed('Metrics')).toEqual(['Count']);
    expect(await listed('Group by')).toEqual(['Created At: month', 'Product → Category']);
    await reviewPage(page, 'notebook-summarized');

    // The summarize step's preview: ten rows at most of the query up to there.
    await summarize.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('table', { name: 'Summarize preview' });
    await preview.waitFor();
    expect(await preview.getByRole('row').count()).toBeGreaterThan(1);
    expect(await preview.getByRole('row').count()).toBeLessThanOrEqual(11);

    const { sent, answer } = await run();
    expect(answer.status).toBe('completed');
    expect(sent['lib/type']).toBe('mbql/query');
    expect(sent.stages[0].breakout).toEqual([
      ['field', expect.objectContaining({ 'temporal-unit': 'month' }), expect.any(Number)],
      ['field', expect.objectContaining({ 'source-field': expect.any(Number) }), expect.any(Number)],
    ]);
    expect(sent.stages[0]).toMatchObject({
      'source-table': ordersTable,
      filters: [['time-interval', expect.any(Object), expect.any(Array), -12, 'month']],
    });
    expect(answer.data.rows.length).toBeGreaterThan(3);
    await pick(page.getByRole('region', { name: 'Results' }), 'Visualization', 'Line');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save new question' });
    await dialog.getByLabel('Name').fill('Orders per month by category');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(() => /^\/question\/\d+-orders_per_month_by_category$/.test(pathOf(page)));
    const id = Number(/\/question\/(\d+)/.exec(pathOf(page))![1]);
    const card = (await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body as { display: string; dataset_query: Query };
    expect(card.display).toBe('line');
    expect(card.dataset_query['lib/type']).toBe('mbql/query');
    const saved = await dataset(card.dataset_query);
    expect(saved.status).toBe('completed');
    expect(saved.data.rows).toEqual(answer.data.rows);

    // Reopened: the same steps, drawn from the saved MBQL 5.
    await page.reload();
    await page.getByRole('list', { name: 'Filters' }).waitFor();
    expect(await listed('Filters')).toEqual(['Created At is in the previous 12 months']);
    expect(await listed('Metrics')).toEqual(['Count']);
    expect(await listed('Group by')).toEqual(['Created At: month', 'Product → Category']);
    await reviewPage(page, 'notebook-reopened');
  });

  it('joins two tables with a custom column, completing its names and showing the API validation error at it', async () => {
    await newQuestionOn('Orders');
    await step('Join data').getByRole('button', { name: 'Join data' }).click();
    await pick(step('Join data'), 'Join type', 'Inner join');
    await pick(step('Join data'), 'Table to join', 'Products');
    // The condition comes from the foreign key orders.product_id -> products.id.
    await until(async () => (await step('Join data').getByRole('textbox', { name: 'Left column' }).inputValue()) === 'Product ID');
    expect(await step('Join data').getByRole('textbox', { name: 'Right column' }).inputValue()).toBe('Products → ID');
    await step('Join data').getByRole('button', { name: 'Add join' }).click();
    expect(await listed('Joins')).toEqual(['Inner join Products on Product ID = Products → ID']);

    const custom = step('Custom columns');
    await custom.getByRole('button', { name: 'Add custom column' }).click();
    await custom.getByRole('textbox', { name: 'Column name' }).fill('Margin');
    const expression = custom.getByRole('textbox', { name: 'Expression' });
    await expression.click();
    await expression.pressSequentially('round([Tot');
    await page.getByRole('option', { name: 'Total', exact: true }).click();
    expect(await expression.inputValue()).toBe('round([Total]');
    await expression.press('End');
    await expression.pressSequentially(', 2)');
    await custom.getByRole('button', { name: 'Add column' }).click();
    // The engine's round takes one argument: the API says so, and the message shows at the expression.
    await until(async () => /round/.test(await fieldDescription(expression)));
    expect(await fieldDescription(expression)).toMatch(/wrong number of arguments to "round"/);

    await expression.fill('[Total] - [Products → Price] * [Quan');
    await expression.press('ArrowDown');
    await expression.press('Enter');
    expect(await expression.inputValue()).toBe('[Total] - [Products → Price] * [Quantity]');
    await custom.getByRole('button', { name: 'Add column' }).click();
    await custom.getByRole('list', { name: 'Custom columns' }).waitFor();
    expect(await listed('Custom columns')).toEqual(['Margin = [Total] - [Products → Price] * [Quantity]']);
    await reviewPage(page, 'notebook-custom-column');

    await custom.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('table', { name: 'Custom columns preview' });
    await preview.waitFor();
    expect(await preview.getByRole('row').count()).toBe(11);

    const { sent, answer } = await run();
    expect(answer.status).toBe('completed');
    expect(sent.stages[0]).toMatchObject({
      joins: [{ strategy: 'inner-join', alias: 'Products' }],
      expressions: [['-', { 'lib/expression-name': 'Margin' }, expect.anything(), expect.anything()]],
    });
    const direct = await dataset(sent);
    expect(direct.data.rows).toEqual(answer.data.rows);
    expect(answer.data.rows).toHaveLength(72);
    const margin = answer.data.cols.findIndex((c) => c.name === 'Margin');
    const total = answer.data.cols.findIndex((c) => c.name === 'total');
    expect(margin).toBeGreaterThan(0);
    expect(typeof answer.data.rows[0][margin]).toBe('number');
    expect(answer.data.rows[0][margin]).toBeLessThan(answer.data.rows[0][total] as number);

    // A custom metric over the custom column: an expression of aggregations, named by its display name.
    const summarize = step('Summarize');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await pick(summarize, 'Metric', 'Custom expression');
    await summarize.getByRole('textbox', { name: 'Metric name' }).fill('Average margin');
    await summarize.getByRole('textbox', { name: 'Metric expression' }).fill('Sum([Margin]) / Count');
    await summarize.getByRole('button', { name: 'Add custom metric' }).click();
    // Added once the API has run it.
    await page.getByRole('list', { name: 'Metrics' }).waitFor();
    expect(await listed('Metrics')).toEqual(['Average margin']);
    const again = await run();
    expect(again.answer.status).toBe('completed');
    expect(again.sent.stages[0].aggregation).toEqual([
      [
        '/',
        expect.objectContaining({ 'display-name': 'Average margin' }),
        ['sum', expect.any(Object), expect.any(Array)],
        ['count', expect.any(Object)],
      ],
    ]);
    expect((await dataset(again.sent)).data.rows).toEqual(again.answer.data.rows);
    const average = answer.data.rows.reduce((sum, r) => sum + (r[margin] as number), 0) / answer.data.rows.length;
    expect(again.answer.data.rows[0][0] as number).toBeCloseTo(average, 6);
  });

  it('uses a model with a renamed column as the source of a new question', async () => {
    const model = await makeModel(
      app.t,
      admin,
      nativeQuery(db, 'SELECT o.id, o.total, p.category FROM orders o JOIN products p ON p.id = o.product_id'),
      { name: 'Order facts' },
    );
    const stored = (await http().get(`/api/card/${model.id}`).set(auth(admin)).expect(200)).body as {
      result_metadata: Array<{ name: string; display_name: string }>;
    };
    const renamed = stored.result_metadata.map((c) => (c.name === 'total' ? { ...c, display_name: 'Order total' } : c));
    await http().put(`/api/card/${model.id}`).set(auth(admin)).send({ result_metadata: renamed }).expect(200);
    const columns = (await http().get(`/api/table/card__${model.id}/query_metadata`).set(auth(admin)).expect(200)).body as {
      fields: Array<{ name: string; display_name: string }>;
    };
    expect(columns.fields.find((c) => c.name === 'total')!.display_name).toBe('Order total');
    const category = columns.fields.find((c) => c.name === 'category')!.display_name;

    await page.goto(`${app.base}/question/new?type=query`);
    const data = step('Data');
    await data.getByRole('textbox', { name: 'Saved question or model' }).fill('Order');
    await page.getByRole('option', { name: 'Order facts (model)' }).click();
    await step('Filter').waitFor();

    await step('Filter').getByRole('button', { name: 'Add filter' }).click();
    await pick(step('Filter'), 'Column to filter', 'Order total');
    await pick(step('Filter'), 'Operator', 'Greater than');
    await step('Filter').getByRole('textbox', { name: 'Value' }).fill('40');
    await step('Filter').getByRole('button', { name: 'Add filter' }).click();
    await step('Filter').getByRole('button', { name: 'Edit filter Order total is greater than 40' }).click();
    await step('Filter').getByRole('textbox', { name: 'Value' }).fill('30');
    await step('Filter').getByRole('button', { name: 'Update filter' }).click();
    expect(await listed('Filters')).toEqual(['Order total is greater than 30']);
    const summarize = step('Summarize');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await pick(summarize, 'Metric', 'Sum of');
    await pick(summarize, 'Column', 'Order total');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await pick(summarize, 'Group by column', category);
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await pick(step('Sort'), 'Sort by', 'Sum of Order total');
    await pick(step('Sort'), 'Direction', 'Descending');
    await step('Sort').getByRole('button', { name: 'Add sort' }).click();
    await reviewPage(page, 'notebook-model-source');

    const { sent, answer } = await run();
    expect(sent.stages[0]['source-card']).toBe(model.id);
    expect(answer.status).toBe('completed');
    expect(answer.data.rows).toHaveLength(3);
    expect(await dataset(sent)).toMatchObject({ data: { rows: answer.data.rows } });
    const sums = answer.data.rows.map((r) => r[1] as number);
    expect([...sums].sort((a, b) => b - a)).toEqual(sums);

    // A second stage filters the summary: its columns are the first stage's result, referred to by name.
    await page.getByRole('button', { name: 'Work on these results in a new stage' }).click();
    const filter2 = step('Filter (stage 2)');
    await filter2.getByRole('button', { name: 'Add filter' }).click();
    await filter2.getByRole('textbox', { name: 'Column to filter', exact: true }).click();
    await page.getByRole('option', { name: /^Sum/ }).click();
    await pick(filter2, 'Operator', 'Greater than');
    const threshold = (sums[0] + sums[1]) / 2;
    await filter2.getByRole('textbox', { name: 'Value' }).fill(String(threshold));
    await filter2.getByRole('button', { name: 'Add filter' }).click();
    const second = await run();
    expect(second.sent.stages).toHaveLength(2);
    expect(second.sent.stages[1].filters).toEqual([
      ['>', expect.any(Object), ['field', expect.any(Object), expect.any(String)], threshold],
    ]);
    expect(second.answer.status).toBe('completed');
    expect(second.answer.data.rows).toEqual(answer.data.rows.filter((r) => (r[1] as number) > threshold));
    expect((await dataset(second.sent)).data.rows).toEqual(second.answer.data.rows);
    await reviewPage(page, 'notebook-second-stage');
  });

  it('joins a model to a table, its columns referred to by name', async () => {
    const model = (await http().get('/api/search?models=dataset&q=Order%20facts').set(auth(admin)).expect(200)).body.data[0] as {
      id: number;
    };
    const columns = (await http().get(`/api/table/card__${model.id}/query_metadata`).set(auth(admin)).expect(200)).body as {
      fields: Array<{ name: string; display_name: string }>;
    };
    const category = columns.fields.find((c) => c.name === 'category')!.display_name;
    await newQuestionOn('Products');
    const join = step('Join data');
    await join.getByRole('button', { name: 'Join data' }).click();
    await pick(join, 'Table to join', 'Order facts (model)');
    await pick(join, 'Left column', 'Category');
    await pick(join, 'Right column', `Order facts → ${category}`);
    await join.getByRole('button', { name: 'Add join' }).click();
    expect(await listed('Joins')).toEqual([`Left outer join Order facts on Category = Order facts → ${category}`]);

    // A column whose values the server keeps is filtered by picking them.
    const filter = step('Filter');
    await filter.getByRole('button', { name: 'Add filter' }).click();
    await pick(filter, 'Column to filter', 'Category');
    await filter.getByRole('textbox', { name: 'Values' }).click();
    await page.getByRole('option', { name: 'Gizmo', exact: true }).click();
    await filter.getByRole('textbox', { name: 'Values' }).press('Escape');
    await filter.getByRole('button', { name: 'Add filter' }).click();
    expect(await listed('Filters')).toEqual(['Category is Gizmo']);

    const { sent, answer } = await run();
    expect(sent.stages[0].joins).toEqual([
      expect.objectContaining({
        stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-card': model.id }],
        conditions: [
          ['=', expect.any(Object), expect.any(Array), ['field', expect.objectContaining({ 'join-alias': 'Order facts' }), 'category']],
        ],
      }),
    ]);
    expect(answer.status).toBe('completed');
    // The two Gizmos, each with the 24 orders of its category.
    expect(answer.data.rows).toHaveLength(48);
    expect((await dataset(sent)).data.rows).toEqual(answer.data.rows);
  });

  it('reopens a saved question of ten steps (legacy MBQL) with every step as it was', async () => {
    const products = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body.tables.find(
      (t: { name: string }) => t.name === 'products',
    ) as { id: number; fields: Array<{ id: number; name: string }> };
    const orders = (await http().get(`/api/table/${ordersTable}/query_metadata`).set(auth(admin)).expect(200)).body as {
      fields: Array<{ id: number; name: string }>;
    };
    const f = (name: string) => orders.fields.find((x) => x.name === name)!.id;
    const p = (name: string) => products.fields.find((x) => x.name === name)!.id;
    const legacy = {
      database: db,
      type: 'query',
      query: {
        'source-table': ordersTable,
        joins: [
          {
            'source-table': products.id,
            alias: 'Products',
            condition: ['=', ['field', f('product_id'), null], ['field', p('id'), { 'join-alias': 'Products' }]],
            fields: 'all',
          },
        ],
        expressions: {
          Double: ['*', ['field', f('total'), null], 2],
          Label: ['concat', ['field', p('category'), { 'join-alias': 'Products' }], '!'],
        },
        filter: [
          'and',
          ['>', ['field', f('total'), null], 10],
          ['not-null', ['field', f('created_at'), null]],
          ['contains', ['field', p('title'), { 'join-alias': 'Products' }], 'Product', { 'case-sensitive': false }],
        ],
        aggregation: [['count'], ['sum', ['expression', 'Double']]],
        breakout: [['field', p('category'), { 'join-alias': 'Products' }]],
        'order-by': [['desc', ['aggregation', 1]]],
        limit: 2,
      },
    };
    const card = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({ name: 'Ten steps', display: 'table', visualization_settings: {}, dataset_query: legacy })
        .expect(200)
    ).body as { id: number };
    const started = Date.now();
    await page.goto(`${app.base}/question/${card.id}`);
    try {
      await page.getByRole('list', { name: 'Filters' }).waitFor();
    } catch (e) {
      // What the page shows instead, to tell a slow load from an error drawn where the steps should be.
      console.log(`the reopened question at ${pathOf(page)} shows:`, (await page.locator('main').innerText()).slice(0, 3000));
      throw e;
    }
    await until(async () => (await step('Row limit').getByRole('textbox', { name: 'Row limit' }).inputValue()) === '2');
    const reopenMs = Date.now() - started;
    console.log(`notebook: reopening a question of 10 steps took ${reopenMs} ms`);
    expect(await listed('Joins')).toEqual(['Left outer join Products on Product ID = Products → ID']);
    expect(await listed('Custom columns')).toEqual(['Double = [Total] * 2', 'Label = concat([Products → Category], "!")']);
    expect(await listed('Filters')).toEqual(['Total is greater than 10', 'Created At is not empty', 'Products → Title contains Product']);
    expect(await listed('Metrics')).toEqual(['Count', 'Sum of Double']);
    expect(await listed('Group by')).toEqual(['Products → Category']);
    expect(await listed('Sorting')).toEqual(['Sum of Double, descending']);
    await reviewPage(page, 'notebook-ten-steps');
    // The legacy question runs the same as its reopened MBQL 5 once edited (the limit changed from 2 to 3 and back).
    const limit = step('Row limit').getByRole('textbox', { name: 'Row limit' });
    await limit.fill('3');
    await limit.fill('2');
    const { sent, answer } = await run();
    expect(sent['lib/type']).toBe('mbql/query');
    expect(answer.data.rows).toEqual((await dataset(legacy)).data.rows);

    // A renamed custom column keeps its uses; a removed join takes what used its columns with it.
    const custom = step('Custom columns');
    await custom.getByRole('button', { name: 'Edit Double' }).click();
    await custom.getByRole('textbox', { name: 'Column name' }).fill('Twice');
    await custom.getByRole('button', { name: 'Update column' }).click();
    await until(async () => (await listed('Metrics')).includes('Sum of Twice'));
    expect(await listed('Sorting')).toEqual(['Sum of Twice, descending']);
    await step('Join data').getByRole('button', { name: 'Remove join Products' }).click();
    expect(await listed('Custom columns')).toEqual(['Twice = [Total] * 2']);
    expect(await listed('Filters')).toEqual(['Total is greater than 10', 'Created At is not empty']);
    expect(await page.getByRole('list', { name: 'Group by' }).count()).toBe(0);
    const edited = await run();
    expect(edited.answer.status).toBe('completed');
    expect(edited.answer.data.rows).toEqual((await dataset(edited.sent)).data.rows);
  });

  it('"New → Metric" builds a metric: one aggregation, drawn as a number, saved with the type metric', async () => {
    await page.goto(`${app.base}/`);
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Metric' }).click();
    await until(() => pathOf(page) === '/metric/new');
    await step('Data').waitFor();
    await pick(step('Data'), 'Database', 'Shop');
    await pick(step('Data'), 'Table', 'Orders');
    const summarize = step('Summarize');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await pick(summarize, 'Metric', 'Sum of');
    await pick(summarize, 'Column', 'Total');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    const { sent, answer } = await run();
    expect(answer.status).toBe('completed');
    expect(answer.data.rows).toHaveLength(1);
    expect((await dataset(sent)).data.rows).toEqual(answer.data.rows);

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Save new metric' });
    await dialog.getByLabel('Name').fill('Order revenue');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await until(() => /^\/metric\/\d+/.test(pathOf(page)));
    const id = Number(/\/metric\/(\d+)/.exec(pathOf(page))![1]);
    const saved = (await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body as {
      type: string;
      display: string;
      name: string;
    };
    expect(saved).toMatchObject({ type: 'metric', display: 'scalar', name: 'Order revenue' });
    const ran = (await http().post(`/api/card/${id}/query`).set(auth(admin)).send({}).expect(202)).body as Answer;
    expect(ran.data.rows).toEqual(answer.data.rows);
  });

  it('filters by a range, a comparison and text; sums, averages, counts distinct; sorts by a metric, limits: as SQL answers', async () => {
    await newQuestionOn('Orders');
    const filters = step('Filter');
    const addFilter = async (column: string, operator: string, fill: Record<string, string>) => {
      await filters.getByRole('button', { name: 'Add filter' }).click();
      await pick(filters, 'Column to filter', column);
      await pick(filters, 'Operator', operator);
      for (const [label, value] of Object.entries(fill)) await filters.getByRole('textbox', { name: label, exact: true }).fill(value);
      await filters.getByRole('button', { name: 'Add filter' }).click();
    };
    await addFilter('Total', 'Between', { From: '30', To: '60' });
    await addFilter('Quantity', 'Greater than', { Value: '1' });
    await addFilter('Product → Title', 'Does not contain', { Value: 'Product 6' });
    expect(await listed('Filters')).toHaveLength(3);

    const summarize = step('Summarize');
    const addMetric = async (metric: string, column: string) => {
      await summarize.getByRole('button', { name: 'Add metric' }).click();
      await pick(summarize, 'Metric', metric);
      await pick(summarize, 'Column', column);
      await summarize.getByRole('button', { name: 'Add metric' }).click();
    };
    await addMetric('Sum of', 'Total');
    await addMetric('Average of', 'Quantity');
    await addMetric('Number of distinct values of', 'Product ID');
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await pick(summarize, 'Group by column', 'Product → Category');
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    expect(await listed('Metrics')).toHaveLength(3);

    const sort = step('Sort');
    await sort.getByRole('textbox', { name: 'Sort by', exact: true }).click();
    await page.getByRole('option', { name: /^Sum of Total/ }).click();
    await pick(sort, 'Direction', 'Descending');
    await sort.getByRole('button', { name: 'Add sort' }).click();
    await step('Row limit').getByRole('textbox', { name: 'Row limit' }).fill('2');

    const { sent, answer } = await run();
    expect(answer.status).toBe('completed');
    expect(sent.stages[0]).toMatchObject({
      limit: 2,
      'order-by': [['desc', expect.any(Object), ['aggregation', expect.any(Object), expect.any(String)]]],
    });
    const file = new Database(warehouseFile, { readonly: true });
    const expected = file
      .prepare(
        `SELECT p.category, SUM(o.total), AVG(o.quantity), COUNT(DISTINCT o.product_id)
         FROM orders o LEFT JOIN products p ON p.id = o.product_id
         WHERE o.total BETWEEN 30 AND 60 AND o.quantity > 1 AND p.title NOT LIKE '%Product 6%'
         GROUP BY p.category ORDER BY 2 DESC LIMIT 2`,
      )
      .raw()
      .all() as unknown[][];
    file.close();
    expect(answer.data.rows).toHaveLength(2);
    expect(answer.data.rows.map((r) => [r[0], r[1], Number(r[2]).toFixed(4), r[3]])).toEqual(
      expected.map((r) => [r[0], r[1], Number(r[2]).toFixed(4), r[3]]),
    );
  });

  it('groups a number into bins: the MBQL names the binning, and the bins count every order', async () => {
    await newQuestionOn('Orders');
    const summarize = step('Summarize');
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await summarize.getByRole('button', { name: 'Add metric' }).click();
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    await pick(summarize, 'Group by column', 'Total');
    await pick(summarize, 'Binning', '10 bins');
    await summarize.getByRole('button', { name: 'Add grouping' }).click();
    const { sent, answer } = await run();
    expect(answer.status).toBe('completed');
    expect(sent.stages[0].breakout).toEqual([
      ['field', expect.objectContaining({ binning: { strategy: 'num-bins', 'num-bins': 10 } }), expect.any(Number)],
    ]);
    expect(answer.data.rows.length).toBeGreaterThan(1);
    expect(answer.data.rows.length).toBeLessThanOrEqual(10);
    expect(answer.data.rows.reduce((n, r) => n + Number(r[1]), 0)).toBe(72);
    // Bins are in order and each starts where the last did or after.
    const starts = answer.data.rows.map((r) => Number(r[0]));
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });
});
