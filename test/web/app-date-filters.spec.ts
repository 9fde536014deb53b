import Database from 'better-sqlite3';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { makeCard, tableQuery } from '../support/card-factories';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { ADMIN, auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';

jest.setTimeout(300_000);

/**
 * Date filters picked, not typed: a dashboard's "all options" date filter set to a range, a month and cleared, and a SQL
 * question's date variable set to a day; each time the shown count is what the API answers for the same value.
 */
describeBrowser('date filters in the application', () => {
  let app: AppServer;
  let admin: string;
  let page: Page;
  let dash: number;
  let dashcard: number;
  let countCard: number;
  let dbId: number;
  const http = () => app.t.http();
  const region = () => page.getByRole('region', { name: 'Order count', exact: true });
  /** The scalar's value: the card's text after its title. */
  const shownCount = async () =>
    (await region().getAttribute('data-state')) === 'ready' && ((await region().textContent()) ?? '').replace('Order count', '').trim();

  /** What the dashcard's query answers with the filter at `value` (null: unset). */
  const apiCount = async (value: string | null) => {
    const res = await http()
      .post(`/api/dashboard/${dash}/dashcard/${dashcard}/card/${countCard}/query`)
      .set(auth(admin))
      .send({ parameters: value === null ? [] : [{ id: 'ordered', type: 'date/all-options', value }] })
      .expect(202);
    return (res.body as { data: { rows: number[][] } }).data.rows[0][0];
  };
  const pick = async (steps: () => Promise<void>, shown: string) => {
    await page.getByRole('button', { name: 'Ordered' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ordered: pick a date' });
    await dialog.waitFor();
    await steps();
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    await until(async () => (await page.getByRole('button', { name: 'Ordered' }).textContent()) === shown);
  };
  const dialog = () => page.getByRole('dialog', { name: 'Ordered: pick a date' });

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const db = new Database(path.join(app.dataDir, 'sales.db'));
    db.exec(`
      CREATE TABLE orders (id INTEGER PRIMARY KEY, created_at DATE NOT NULL, total REAL);
      INSERT INTO orders VALUES (1, '2024-01-05', 10), (2, '2024-01-20', 20), (3, '2024-02-10', 30),
        (4, '2024-04-02', 40), (5, '2024-07-15', 50);
    `);
    db.close();
    dbId = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'sqlite', name: 'Sales', details: { db: 'sales.db' } })
        .expect(200)
    ).body.id as number;
    await waitForSync(app.t, admin, dbId);
    const meta = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
    };
    const orders = meta.tables.find((t) => t.name === 'orders')!;
    const createdAt = orders.fields.find((f) => f.name === 'created_at')!.id;
    countCard = (
      await makeCard(app.t, admin, tableQuery(dbId, orders.id, { aggregation: [['count']] }), { name: 'Order count', display: 'scalar' })
    ).id;
    dash = (await makeDashboard(app.t, admin, { name: 'Sales by date' })).id;
    const saved = await http()
      .put(`/api/dashboard/${dash}`)
      .set(auth(admin))
      .send({
        parameters: [{ id: 'ordered', name: 'Ordered', slug: 'ordered', type: 'date/all-options', sectionId: 'date' }],
        dashcards: [
          newDashcard(-1, countCard, {
            parameter_mappings: [{ parameter_id: 'ordered', card_id: countCard, target: ['dimension', ['field', createdAt, null]] }],
          }),
        ],
      })
      .expect(200);
    dashcard = (saved.body as { dashcards: Array<{ id: number }> }).dashcards[0].id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('sets a dashboard date filter to a range, then a month, then clears it; the card shows what the API answers', async () => {
    page = await app.open(`/dashboard/${dash}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.getByRole('heading', { name: 'Sales by date', level: 1 }).waitFor();
    await until(async () => (await shownCount()) === String(await apiCount(null)));

    await pick(async () => {
      await dialog().getByText('Range', { exact: true }).click();
      await dialog().getByRole('textbox', { name: 'From' }).fill('2024-01-01');
      await dialog().getByRole('textbox', { name: 'To' }).fill('2024-01-31');
      // Typed dates: Tab leaves the field and closes its calendar, as a person would before Apply.
      await page.keyboard.press('Tab');
      await reviewPage(page, 'date-filter-range');
    }, 'Jan 1, 2024 – Jan 31, 2024');
    expect(await apiCount('2024-01-01~2024-01-31')).toBe(2);
    await until(async () => (await shownCount()) === '2');

    await pick(async () => {
      await dialog().getByText('Month', { exact: true }).click();
      await dialog().getByRole('textbox', { name: 'Month' }).click();
      await page.getByRole('option', { name: 'February' }).click();
      await dialog().getByRole('textbox', { name: 'Year' }).fill('2024');
    }, 'February 2024');
    expect(await apiCount('2024-02')).toBe(1);
    await until(async () => (await shownCount()) === '1');

    await page.getByRole('button', { name: 'Ordered' }).click();
    await dialog().getByRole('button', { name: 'Clear' }).click();
    await until(async () => (await shownCount()) === '5');
  });

  it("sets a SQL question's date variable to a day and runs it with that value", async () => {
    const sql = 'SELECT COUNT(*) AS n FROM orders WHERE created_at >= {{since}}';
    const tags = { since: { id: 'since-tag', name: 'since', 'display-name': 'Since', type: 'date' } };
    const question = (
      await http()
        .post('/api/card')
        .set(auth(admin))
        .send({
          name: 'Orders since',
          display: 'table',
          visualization_settings: {},
          dataset_query: { type: 'native', database: dbId, native: { query: sql, 'template-tags': tags } },
        })
        .expect(200)
    ).body as { id: number };
    await page.goto(`${app.base}/question/${question.id}`);
    await page.getByRole('button', { name: 'Since' }).click();
    const picker = page.getByRole('dialog', { name: 'Since: pick a date' });
    await picker.getByRole('textbox', { name: 'Date' }).fill('2024-02-01');
    await page.keyboard.press('Tab');
    await picker.getByRole('button', { name: 'Apply' }).click();
    await until(async () => (await page.getByRole('button', { name: 'Since' }).textContent()) === 'Feb 1, 2024');
    const ran = page.waitForResponse(
      (r) => /\/api\/(dataset|card\/\d+\/query)$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const body = (await (await ran).json()) as { data: { rows: number[][] } };
    const direct = await http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({
        type: 'native',
        database: dbId,
        native: { query: sql, 'template-tags': tags },
        parameters: [{ type: 'date/single', target: ['variable', ['template-tag', 'since']], value: '2024-02-01' }],
      })
      .expect(202);
    expect(body.data.rows).toEqual((direct.body as { data: { rows: number[][] } }).data.rows);
    expect(body.data.rows).toEqual([[3]]);
  });
});
