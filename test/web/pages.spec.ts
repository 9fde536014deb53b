import type { Page } from 'playwright-core';
import { auth } from '../support/factories';
import { describeBrowser, stableScreenshot } from './support/browser';
import { expectScreenshot } from './support/screenshots';
import {
  embedToken,
  enableEmbed,
  publicLink,
  revokePublicLink,
  sampleCard,
  sampleDashboard,
  startWebApp,
  textCard,
  waitDrawn,
  WebApp,
} from './support/web-app';

jest.setTimeout(300_000);

const CAT = { id: 'cat', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' };
const STATE = { id: 'st', name: 'State', slug: 'state', type: 'string/=', sectionId: 'location' };

/** The public and embed pages in Chromium, on the Sample Database (screenshots: test/web/__screenshots__/). */
describeBrowser('web pages', () => {
  let w: WebApp;
  let bar: number;
  let productCount: number;
  let ordersCount: number;
  let dash: { id: number; dashcards: number[] };
  const field = (t: string, f: string) => w.s.field(t, f);
  const sql = async (q: string) =>
    (
      await w.s.t
        .http()
        .post('/api/dataset')
        .set(auth(w.s.admin))
        .send({ database: w.s.db, type: 'native', native: { query: q } })
        .expect(202)
    ).body.data.rows;
  const dashcardText = (page: Page, id: number) =>
    page.textContent(`[data-testid="dashcard"][data-dashcard-id="${id}"] [data-testid="visualization"]`);

  beforeAll(async () => {
    w = await startWebApp();
    bar = await sampleCard(w, {
      name: 'Orders by category',
      display: 'bar',
      table: 'ORDERS',
      query: {
        aggregation: [['count']],
        breakout: [['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }]],
      },
    });
    productCount = await sampleCard(w, { name: 'Products', display: 'scalar', table: 'PRODUCTS', query: { aggregation: [['count']] } });
    ordersCount = await sampleCard(w, { name: 'Orders', display: 'scalar', table: 'ORDERS', query: { aggregation: [['count']] } });
    const catOnProducts = {
      parameter_id: 'cat',
      card_id: productCount,
      target: ['dimension', ['field', field('PRODUCTS', 'CATEGORY'), null]],
    };
    const made = await sampleDashboard(w, {
      name: 'Sales overview',
      parameters: [CAT, STATE],
      tabs: ['Overview', 'Details'],
      dashcards: [
        textCard('Sales at a glance', { col: 0, row: 0, size_x: 24, size_y: 1 }, 'heading'),
        { card_id: productCount, col: 0, row: 1, size_x: 8, size_y: 3, parameter_mappings: [catOnProducts] },
        { card_id: ordersCount, col: 8, row: 1, size_x: 8, size_y: 3, parameter_mappings: [] },
        textCard('**Products** counts the catalogue; *Orders* all orders.', { col: 16, row: 1, size_x: 8, size_y: 3 }),
        { card_id: bar, col: 0, row: 4, size_x: 24, size_y: 6 },
        { card_id: bar, col: 0, row: 0, size_x: 12, size_y: 6, tab: 1 },
      ],
    });
    dash = made;
  });
  afterAll(async () => {
    await w?.close();
  });

  it('public question: the title, the visualization and the download button', async () => {
    const uuid = await publicLink(w, 'card', bar);
    const page = await w.open(`/public/question/${uuid}`);
    expect(await page.textContent('.card-title')).toBe('Orders by category');
    expect(await page.getAttribute('[data-testid="visualization"]', 'data-display')).toBe('bar');
    expectScreenshot('public-question-bar', await stableScreenshot(page, () => page.screenshot()));

    // The download menu fetches the public export endpoint.
    await page.click('[aria-label="Download results"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-format="csv"]')]);
    const csv = await streamText(await download.createReadStream());
    expect(csv.split(/\r?\n/)[0]).toMatch(/Category.*Count/);
    expect(csv).toContain('Widget');
  });

  it('public question .csv/.json links answer the download', async () => {
    const uuid = await publicLink(w, 'card', bar);
    const res = await fetch(`${w.base}/public/question/${uuid}.json`);
    expect(res.status).toBe(200);
    const rows = (await res.json()) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(4);
    const csv = await fetch(`${w.base}/public/question/${uuid}.csv`);
    expect([csv.status, csv.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/csv')]);
  });

  it('public dashboard: the grid, the heading and text cards, the tabs', async () => {
    const uuid = await publicLink(w, 'dashboard', dash.id);
    const page = await w.open(`/public/dashboard/${uuid}`);
    expect(await page.textContent('[data-testid="title"]')).toBe('Sales overview');
    expect(await page.textContent('[data-testid="heading-card"]')).toBe('Sales at a glance');
    expect(await page.innerHTML('[data-testid="text-card"]')).toContain('<strong>Products</strong>');
    // The 24-column grid: the two scalars side by side (8 columns each), the bar below across the whole width.
    const [products, orders, barBox] = await Promise.all(
      dash.dashcards
        .slice(1, 3)
        .concat(dash.dashcards[4])
        .map((id) => page.locator(`[data-dashcard-id="${id}"]`).boundingBox()),
    );
    expect(Math.abs(products!.y - orders!.y)).toBeLessThan(2);
    expect(orders!.x).toBeGreaterThan(products!.x + products!.width - 1);
    expect(Math.abs(products!.width - orders!.width)).toBeLessThan(2);
    expect(barBox!.y).toBeGreaterThan(products!.y + products!.height - 1);
    expect(barBox!.width).toBeGreaterThan(products!.width * 2.9);
    expect(await dashcardText(page, dash.dashcards[1])).toContain('200');
    expectScreenshot('public-dashboard', await stableScreenshot(page, () => page.screenshot({ fullPage: true })));

    await page.click('[role="tab"]:has-text("Details")');
    await page.waitForSelector(`[data-dashcard-id="${dash.dashcards[5]}"]`);
    await waitDrawn(page);
    expect(await page.locator(`[data-dashcard-id="${dash.dashcards[1]}"]`).count()).toBe(0);
    expect(await page.getAttribute('[role="tab"][aria-selected="true"]', 'aria-selected')).toBe('true');
    expect(await page.textContent('[role="tab"][aria-selected="true"]')).toBe('Details');
  });

  it('a parameter change re-runs only the cards it is mapped to, with the chosen value', async () => {
    const uuid = await publicLink(w, 'dashboard', dash.id);
    const page = await w.open(`/public/dashboard/${uuid}`);
    const runs: string[] = [];
    page.on('request', (r) => {
      const m = /\/dashcard\/(\d+)\/card\//.exec(r.url());
      if (m) runs.push(m[1]);
    });
    // The category list comes from the values endpoint; choose Widget.
    await page.click('[data-slug="category"] input');
    await page.waitForSelector('[role="option"]:has-text("Widget")');
    await Promise.all([
      page.waitForSelector('[data-slug="category"][data-value*="Widget"]'),
      page.waitForResponse((r) => r.url().includes(`/dashcard/${dash.dashcards[1]}/`) && decodeURIComponent(r.url()).includes('Widget')),
      page.click('[role="option"]:has-text("Widget")'),
    ]);
    await waitDrawn(page);
    const [[widgets]] = await sql("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Widget'");
    expect(await dashcardText(page, dash.dashcards[1])).toContain(String(widgets));
    expect(runs).toEqual([String(dash.dashcards[1])]);
  });

  it('question date and number widgets send their values and show the filtered result', async () => {
    const tags = {
      created: {
        id: 'created',
        name: 'created',
        'display-name': 'Created',
        type: 'dimension',
        dimension: ['field', field('ORDERS', 'CREATED_AT'), null],
        'widget-type': 'date/all-options',
      },
      min_total: { id: 'min_total', name: 'min_total', 'display-name': 'Min total', type: 'number' },
    };
    const id = await sampleCard(w, {
      name: 'Filtered orders',
      display: 'scalar',
      sql: 'SELECT COUNT(*) AS n FROM ORDERS WHERE {{created}} [[AND TOTAL >= {{min_total}}]]',
      tags,
    });
    const uuid = await publicLink(w, 'card', id);
    const page = await w.open(`/public/question/${uuid}`);
    const shown = async () => (await page.textContent('[data-testid="visualization"]'))!.replace(/\D/g, '');
    const expected = async (parameters: unknown[]) =>
      String(
        (
          await w.s.t
            .http()
            .get(`/api/public/card/${uuid}/query`)
            .query({ parameters: JSON.stringify(parameters) })
            .expect(202)
        ).body.data.rows[0][0],
      );
    expect(await shown()).toBe(await expected([]));

    const created = { id: 'created', type: 'date/all-options', target: ['dimension', ['template-tag', 'created']], value: '~2024-01-01' };
    await page.selectOption('[aria-label="Created kind"]', 'before');
    await Promise.all([
      page.waitForResponse((r) => decodeURIComponent(r.url()).includes('~2024-01-01')),
      page.fill('input[type="date"][aria-label="Created"]', '2024-01-01'),
    ]);
    await waitDrawn(page);
    const before = await expected([created]);
    expect(await shown()).toBe(before);

    const min = { id: 'min_total', type: 'number/=', target: ['variable', ['template-tag', 'min_total']], value: [100] };
    await page.fill('[aria-label="Min total"]', '100');
    await Promise.all([
      page.waitForResponse((r) => decodeURIComponent(r.url()).includes('"min_total"')),
      page.press('[aria-label="Min total"]', 'Enter'),
    ]);
    await waitDrawn(page);
    const both = await expected([created, min]);
    expect(await shown()).toBe(both);
    expect(Number(both)).toBeLessThan(Number(before));

    // A relative date from the list.
    await page.selectOption('[aria-label="Created kind"]', 'relative');
    await Promise.all([
      page.waitForResponse((r) => decodeURIComponent(r.url()).includes('past5years')),
      page.selectOption('select[aria-label="Created"]', 'past5years'),
    ]);
    await waitDrawn(page);
    expect(await shown()).toBe(await expected([{ ...created, value: 'past5years' }, min]));
  });

  it('a pivot question and a pivot dashcard are run through the pivot endpoints', async () => {
    const id = await sampleCard(w, {
      name: 'Pivot',
      display: 'pivot',
      table: 'ORDERS',
      query: {
        aggregation: [['count']],
        breakout: [
          ['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }],
          ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'year' }],
        ],
      },
    });
    const urls: string[] = [];
    const page = await w.browser.newPage();
    page.on('request', (r) => urls.push(new URL(r.url()).pathname));
    await page.goto(`${w.base}/public/question/${await publicLink(w, 'card', id)}`);
    await waitDrawn(page);
    expect(urls.filter((u) => u.includes('/query'))).toEqual([expect.stringMatching(/^\/api\/public\/pivot\/card\/[^/]+\/query$/)]);
    expect(await page.getAttribute('[data-testid="visualization"]', 'data-display')).toBe('pivot');
    await page.close();

    const d = await sampleDashboard(w, { name: 'Pivot dash', dashcards: [{ card_id: id, col: 0, row: 0, size_x: 24, size_y: 8 }] });
    await enableEmbed(w, 'dashboard', d.id);
    const embed = await w.browser.newPage();
    const embedUrls: string[] = [];
    embed.on('request', (r) => embedUrls.push(new URL(r.url()).pathname));
    await embed.goto(`${w.base}/embed/dashboard/${embedToken({ dashboard: d.id })}`);
    await waitDrawn(embed);
    expect(embedUrls.filter((u) => u.includes('/dashcard/'))).toEqual([
      expect.stringMatching(/^\/api\/embed\/pivot\/dashboard\/[^/]+\/dashcard\/\d+\/card\/\d+$/),
    ]);
    await embed.close();
  });

  it('#slug=value sets a parameter default', async () => {
    const uuid = await publicLink(w, 'dashboard', dash.id);
    const page = await w.open(`/public/dashboard/${uuid}#category=Gizmo`);
    const [[gizmos]] = await sql("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'");
    expect(await dashcardText(page, dash.dashcards[1])).toContain(String(gizmos));
    expect(await page.textContent('[data-slug="category"] .chip')).toContain('Gizmo');
  });

  it('theme and hash options: night, no title, hidden parameter, no download button, no border', async () => {
    const uuid = await publicLink(w, 'dashboard', dash.id);
    const page = await w.open(
      `/public/dashboard/${uuid}#theme=night&titled=false&hide_parameters=category&hide_download_button=true&bordered=false&font=Lato`,
    );
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('night');
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(46, 53, 59)');
    expect(await page.locator('[data-testid="title"]').count()).toBe(0);
    expect(await page.locator('[data-slug="category"]').count()).toBe(0);
    expect(await page.locator('[data-slug="state"]').count()).toBe(1);
    expect(await page.locator('[data-testid="download-menu"]').count()).toBe(0);
    expect(await page.evaluate('getComputedStyle(document.querySelector(".page")).borderTopStyle')).toBe('none');
    expectScreenshot('public-dashboard-night', await stableScreenshot(page, () => page.screenshot({ fullPage: true })));
  });

  it('#refresh=N re-runs the cards every N seconds (5 at least)', async () => {
    const uuid = await publicLink(w, 'dashboard', dash.id);
    const page = await w.open(`/public/dashboard/${uuid}#refresh=5`);
    // A card's second run (the first was before the page had drawn), and the page drawn again after it.
    await page.waitForRequest((r) => r.url().includes(`/dashcard/${dash.dashcards[2]}/`), { timeout: 20_000 });
    await waitDrawn(page);
    expect(await page.locator('[data-testid="dashcard"]').count()).toBe(3);
  });

  it('embed dashboard: a locked parameter is applied, not shown, and not changeable', async () => {
    await enableEmbed(w, 'dashboard', dash.id, { category: 'locked', state: 'enabled' });
    const token = embedToken({ dashboard: dash.id }, { category: ['Gizmo'] });
    // A viewer's value for the locked slug in the hash is ignored (the page does not list it).
    const page = await w.open(`/embed/dashboard/${token}#category=Widget`);
    const [[gizmos]] = await sql("SELECT COUNT(*) FROM PRODUCTS WHERE CATEGORY = 'Gizmo'");
    expect(await dashcardText(page, dash.dashcards[1])).toContain(String(gizmos));
    expect(await page.locator('[data-slug="category"]').count()).toBe(0);
    expect(await page.locator('[data-slug="state"]').count()).toBe(1);
    // The token is in the page URL and API paths only: never in storage.
    expect(await page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage), document.cookie])')).toBe(
      '[[],[],""]',
    );
    expectScreenshot('embed-dashboard', await stableScreenshot(page, () => page.screenshot({ fullPage: true })));

    // The embed API has an export endpoint: the menu offers xlsx and downloads it.
    await page.click(`[data-dashcard-id="${dash.dashcards[1]}"] [aria-label="Download results"]`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-dashcard-id="${dash.dashcards[1]}"] [data-format="xlsx"]`),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
  });

  it('embed question: drawn from the signed token, with its download menu', async () => {
    await enableEmbed(w, 'card', bar);
    const page = await w.open(`/embed/question/${embedToken({ question: bar })}`);
    expect(await page.textContent('.card-title')).toBe('Orders by category');
    expect(await page.getAttribute('[data-testid="visualization"]', 'data-display')).toBe('bar');
    await page.click('[aria-label="Download results"]');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-format="json"]')]);
    expect(JSON.parse(await streamText(await download.createReadStream()))).toHaveLength(4);
  });

  it('a revoked public link and a bad embed token show the error page', async () => {
    const uuid = await publicLink(w, 'card', ordersCount);
    await revokePublicLink(w, 'card', ordersCount);
    const page = await w.open(`/public/question/${uuid}`);
    expect(await page.getAttribute('[data-testid="error-page"]', 'data-status')).toBe('404');
    expect(await page.textContent('[data-testid="error-page"] h1')).toBe('This link is no longer available');
    expectScreenshot('error-page', await stableScreenshot(page, () => page.screenshot()));

    const bad = await w.open(`/embed/dashboard/${embedToken({ dashboard: dash.id }).slice(0, -4)}xxxx`);
    expect(await bad.getAttribute('[data-testid="error-page"]', 'data-status')).toBe('400');
  });
});

async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
