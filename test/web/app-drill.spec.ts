import Database from 'better-sqlite3';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { parseAdhoc } from '../../web/src/app/question/adhoc';
import { makeCard, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth, makeUser, setupAdmin, type MadeUser } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';
import { reviewPage } from './support/a11y';
import { AppServer, pathOf, signIn, startAppServer } from './support/app-server';
import { describeBrowser } from './support/browser';
import { settledBox } from './support/layout';

jest.setTimeout(300_000);

interface Answer {
  data: { rows: unknown[][]; cols: Array<{ name: string }> };
}
type Stage = Record<string, unknown>;

/**
 * Drill-through and timeline events as an analyst uses them: a bar of a saved "orders count by category" chart opens
 * its records, a month of a line chart zooms into its days, and an event made from the chart is stored and drawn.
 */
describeBrowser('drill-through and timeline events', () => {
  let app: AppServer;
  let admin: string;
  let analyst: MadeUser;
  let page: Page;
  let barCard: number;
  let lineCard: number;
  let sqlModel: number;
  const http = () => app.t.http();
  const viz = () => page.getByTestId('visualization');
  const ready = (l: Locator) => until(async () => (await l.getAttribute('data-state')) === 'ready');
  /** The ad-hoc question the URL now holds. */
  const shownQuery = () => parseAdhoc(new URL(page.url()).hash)?.dataset_query as { database: number; stages: Stage[] } | undefined;
  const cellsOf = async (col: number) =>
    page.getByRole('grid', { name: 'Results' }).locator(`[role="gridcell"][aria-colindex="${col}"]`).allTextContents();
  /**
   * Clicks the bar above a category's label, a little over the x axis, as a person aims at it (the chart is under the
   * notebook, which may still be loading and push the chart down: the click waits for the label to stay put). A click
   * that opened no menu is made again, as a person would.
   */
  const clickBar = async (category: string) => {
    await until(async () => {
      await viz().scrollIntoViewIfNeeded();
      const label = await settledBox(viz().getByText(category, { exact: true }));
      await page.mouse.click(label.x + label.width / 2, label.y - 20);
      return page
        .getByRole('menu')
        .waitFor({ timeout: 5_000 })
        .then(
          () => true,
          () => false,
        );
    });
  };

  beforeAll(async () => {
    app = await startAppServer();
    admin = await setupAdmin(app.t);
    const db = new Database(path.join(app.dataDir, 'shop.db'));
    db.exec(`
      CREATE TABLE orders (id INTEGER PRIMARY KEY, category TEXT NOT NULL, created_at DATETIME NOT NULL, total REAL);
      INSERT INTO orders VALUES
        (1, 'Gizmo', '2024-01-05 10:00:00', 10), (2, 'Gadget', '2024-01-20 11:00:00', 20), (3, 'Gizmo', '2024-02-10 09:00:00', 30),
        (4, 'Widget', '2024-02-11 12:00:00', 40), (5, 'Gizmo', '2024-02-25 15:00:00', 50), (6, 'Gadget', '2024-03-15 08:00:00', 60),
        (7, 'Gizmo', '2024-03-16 08:00:00', 70), (8, 'Widget', '2024-03-16 18:00:00', 80);
    `);
    db.close();
    const dbId = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine: 'sqlite', name: 'Shop', details: { db: 'shop.db' } })
        .expect(200)
    ).body.id as number;
    await waitForSync(app.t, admin, dbId);
    const meta = (await http().get(`/api/database/${dbId}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
    };
    const orders = meta.tables.find((t) => t.name === 'orders')!;
    const field = (name: string) => orders.fields.find((f) => f.name === name)!.id;
    analyst = await makeUser(app.t, admin);
    const me = (await http().get('/api/user/current').set(auth(analyst.session)).expect(200)).body as { personal_collection_id: number };
    const mine = { collection_id: me.personal_collection_id };
    barCard = (
      await makeCard(
        app.t,
        analyst.session,
        tableQuery(dbId, orders.id, { aggregation: [['count']], breakout: [['field', field('category'), null]] }),
        {
          name: 'Orders count by product category',
          display: 'bar',
          ...mine,
        },
      )
    ).id;
    const byMonth = ['field', field('created_at'), { 'temporal-unit': 'month' }];
    lineCard = (
      await makeCard(app.t, analyst.session, tableQuery(dbId, orders.id, { aggregation: [['count']], breakout: [byMonth] }), {
        name: 'Orders per month',
        display: 'line',
        ...mine,
      })
    ).id;
    sqlModel = (
      await makeModel(app.t, analyst.session, nativeQuery(dbId, 'SELECT id, category, total FROM orders ORDER BY id'), {
        name: 'Order lines',
        ...mine,
      })
    ).id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a bar opens the menu; "View these Orders" shows that category\'s orders, as the API answers them', async () => {
    page = await app.open(`/question/${barCard}`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(page, analyst.email, analyst.password);
    await ready(viz());
    await clickBar('Gizmo');
    const menu = page.getByRole('menu');
    await menu.getByRole('menuitem', { name: 'View these Orders' }).waitFor();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(
      expect.arrayContaining(['Is this value (=)', 'Is not this value (≠)', 'View these Orders', 'Created At: Month']),
    );
    await reviewPage(page, 'question-drill-menu');
    const ran = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await menu.getByRole('menuitem', { name: 'View these Orders' }).click();
    await ran;
    await until(() => pathOf(page).startsWith('/question#'));
    const query = shownQuery()!;
    expect(query.stages[0].aggregation).toBeUndefined();
    expect(query.stages[0].breakout).toBeUndefined();
    const api = (await http().post('/api/dataset').set(auth(analyst.session)).send(query).expect(202)).body as Answer;
    const category = api.data.cols.findIndex((c) => c.name === 'category');
    expect(api.data.rows.map((r) => r[category])).toEqual(['Gizmo', 'Gizmo', 'Gizmo', 'Gizmo']);
    await until(async () => (await cellsOf(category + 1)).length === 4);
    expect(await cellsOf(category + 1)).toEqual(['Gizmo', 'Gizmo', 'Gizmo', 'Gizmo']);
    await page.getByText('Showing 4 rows', { exact: false }).waitFor();

    // A cell of the records filters on its value: the orders of Gizmo over 30, a new ad-hoc question.
    const total = api.data.cols.findIndex((c) => c.name === 'total');
    const before = pathOf(page);
    const grid = page.getByRole('grid', { name: 'Results' });
    await grid.locator(`[role="gridcell"][aria-colindex="${total + 1}"]`, { hasText: /^30/ }).click();
    const again = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await page.getByRole('menuitem', { name: 'Greater than (>)' }).click();
    const narrowed = (await (await again).json()) as Answer;
    await until(() => pathOf(page) !== before);
    expect(JSON.stringify(shownQuery()!.stages[0].filters)).toMatch(/\[">",\{[^}]*\},\["field",\{[^}]*\},\d+\],30\]/);
    expect(narrowed.data.rows.map((r) => r[total])).toEqual([50, 70]);
    await until(async () => (await cellsOf(total + 1)).length === 2);
  });

  it('zooms a month of the line chart into its days, filtered to that month', async () => {
    await page.goto(`${new URL(page.url()).origin}/question/${lineCard}`);
    await ready(viz());
    // The point of February: the small circle straight above its label.
    await viz().scrollIntoViewIfNeeded();
    const label = await settledBox(
      viz()
        .getByText(/February|Feb/)
        .first(),
    );
    const cx = label.x + label.width / 2;
    let point: { x: number; y: number } | null = null;
    for (const p of await viz().locator('svg path').all()) {
      const b = await p.boundingBox();
      if (b && b.width > 0 && b.width <= 12 && b.height <= 12 && Math.abs(b.x + b.width / 2 - cx) < 3)
        point = { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    expect(point).not.toBeNull();
    await page.mouse.click(point!.x, point!.y);
    const ran = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await page.getByRole('menuitem', { name: 'Zoom in' }).click();
    const answer = (await (await ran).json()) as Answer;
    const stage = shownQuery()!.stages[0];
    expect(JSON.stringify(stage.breakout)).toContain('"temporal-unit":"day"');
    expect(JSON.stringify(stage.filters)).toMatch(/"=",\{[^}]*\},\["field",\{[^}]*"temporal-unit":"month"[^}]*\},\d+\],"2024-02-01/);
    // Days of February only: the 10th, 11th and 25th.
    expect(answer.data.rows.map((r) => String(r[0]).slice(0, 10))).toEqual(['2024-02-10', '2024-02-11', '2024-02-25']);
    await ready(viz());
    expect(await viz().getAttribute('data-display')).toBe('line');
  });

  it("a SQL model's cell filters the model's rows (the model as the new question's source)", async () => {
    await page.goto(`${new URL(page.url()).origin}/model/${sqlModel}`);
    const grid = page.getByRole('grid', { name: 'Results' });
    await grid.locator('[role="gridcell"][aria-colindex="2"]', { hasText: 'Widget' }).first().click();
    const ran = page.waitForResponse((r) => r.url().endsWith('/api/dataset') && r.request().method() === 'POST');
    await page.getByRole('menuitem', { name: 'Is this value (=)' }).click();
    const answer = (await (await ran).json()) as Answer;
    await until(() => pathOf(page).startsWith('/question#'));
    expect(shownQuery()!.stages[0]['source-card']).toBe(sqlModel);
    expect(answer.data.rows.map((r) => r[1])).toEqual(['Widget', 'Widget']);
    await until(async () => (await cellsOf(2)).length === 2);
  });

  it('creates an event from the chart: stored, and drawn as a marker that names it', async () => {
    await page.goto(`${new URL(page.url()).origin}/question/${lineCard}`);
    await ready(viz());
    await page.getByRole('button', { name: 'Create an event' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.getByText('Enter a name for the event.').waitFor();
    await dialog.getByLabel('Event name').fill('Spring sale');
    await dialog.getByLabel('Date').fill('2024-03-10');
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/timeline-event') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const created = (await (await posted).json()) as { id: number };
    await dialog.waitFor({ state: 'detached' });
    const stored = (await http().get(`/api/timeline-event/${created.id}`).set(auth(analyst.session)).expect(200)).body as {
      name: string;
      timestamp: string;
      timeline_id: number;
    };
    expect(stored).toMatchObject({ name: 'Spring sale' });
    expect(stored.timestamp.slice(0, 10)).toBe('2024-03-10');
    const timelines = (await http().get(`/api/card/${lineCard}/timelines`).set(auth(analyst.session)).expect(200)).body as Array<{
      id: number;
    }>;
    expect(timelines.map((t) => t.id)).toContain(stored.timeline_id);

    const marker = page.getByRole('button', { name: 'Event: Spring sale' });
    await marker.waitFor();
    await marker.focus();
    await page.getByRole('tooltip').getByText('Spring sale').waitFor();
    await reviewPage(page, 'question-timeline-event');
    // The switch hides the markers and shows them again.
    await page.getByRole('switch', { name: 'Show timelines' }).click({ force: true });
    await marker.waitFor({ state: 'detached' });
    await page.getByRole('switch', { name: 'Show timelines' }).click({ force: true });
    await marker.waitFor();
  });

  it("opens the x-ray of a bar's orders from the menu's automatic insights", async () => {
    await page.goto(`${app.base}/question/${barCard}`);
    await ready(viz());
    await clickBar('Gizmo');
    await page.getByRole('menu').getByRole('menuitem', { name: 'X-ray these Orders' }).click();
    await until(() => pathOf(page).startsWith('/auto/dashboard/adhoc/'));
    const encoded = pathOf(page).slice('/auto/dashboard/adhoc/'.length);
    const xray = (await http().get(`/api/automagic-dashboards/adhoc/${encoded}`).set(auth(analyst.session)).expect(200)).body as {
      name: string;
    };
    await page.getByRole('heading', { name: xray.name, level: 1 }).waitFor();
    // The x-ray is of the bar's rows: its query filters the category to Gizmo.
    const sent = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { stages: Array<{ filters?: unknown[] }> };
    expect(JSON.stringify(sent.stages[0].filters)).toContain('"Gizmo"');
  });
});
