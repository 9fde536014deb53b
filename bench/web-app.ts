/**
 * Part of the web suite: a 20-card dashboard opened in the application (/dashboard/:id, signed in by the session
 * cookie), as issue 36 asks for: when the first card has drawn and when all have, and the JavaScript the page loads.
 */
import type { Browser } from 'playwright-core';
import { api, median, percentile } from './http';

const CARDS = 20;
export const DISPLAYS = ['bar', 'line', 'area', 'pie', 'row', 'scalar', 'table', 'combo'];

/** One question on ORDERS per display: what both the embedded and the application dashboards of the suite show. */
export function displayQueries(field: (t: string, f: string) => number): Record<string, Record<string, unknown>> {
  const category = ['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }];
  const month = ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }];
  const total = ['field', field('ORDERS', 'TOTAL'), null];
  return {
    bar: { aggregation: [['count']], breakout: [category] },
    line: { aggregation: [['sum', total]], breakout: [month] },
    area: { aggregation: [['count']], breakout: [month] },
    pie: { aggregation: [['count']], breakout: [category] },
    row: { aggregation: [['avg', total]], breakout: [category] },
    scalar: { aggregation: [['count']] },
    table: { limit: 50 },
    combo: { aggregation: [['count'], ['sum', total]], breakout: [month] },
  };
}

const READY = `[...document.querySelectorAll('[data-testid="dashcard"]')].filter((c) => c.getAttribute('data-state') === 'ready'
  && [...c.querySelectorAll('[data-testid="visualization"]')].every((v) => v.getAttribute('data-state') === 'ready')).length`;

export interface AppLoad {
  first: number;
  all: number;
  js: string[];
}

/** A dashboard of CARDS questions on ORDERS (the displays in turn, two per row): its id. */
export async function appDashboard(url: string, admin: string, db: number, orders: number, field: (t: string, f: string) => number) {
  const queries = displayQueries(field);
  const dashcards = [];
  for (let i = 0; i < CARDS; i++) {
    const display = DISPLAYS[i % DISPLAYS.length];
    const dataset_query = { database: db, type: 'query', query: { 'source-table': orders, ...queries[display] } };
    const r = await api(url, admin, 'POST', '/api/card', {
      name: `App ${i + 1} ${display}`,
      display,
      visualization_settings: {},
      dataset_query,
    });
    if (r.status !== 200) throw new Error(`card ${display}: ${JSON.stringify(r.json).slice(0, 300)}`);
    const id = (r.json as { id: number }).id;
    dashcards.push({ id: -(i + 1), card_id: id, row: Math.floor(i / 2) * 6, col: (i % 2) * 12, size_x: 12, size_y: 6 });
  }
  const dash = (await api(url, admin, 'POST', '/api/dashboard', { name: 'App bench' })).json as { id: number };
  const put = await api(url, admin, 'PUT', `/api/dashboard/${dash.id}`, { dashcards });
  if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
  return dash.id;
}

/**
 * One load in a fresh context (cold browser cache): ms from navigation start until the first card, and then every
 * card, has drawn. The cards below the fold draw as they are scrolled to (the grid renders only what is near the
 * viewport), so the page is scrolled to the bottom once the first has drawn, as a reader would.
 */
export async function openAppDashboard(browser: Browser, url: string, session: string, id: number): Promise<AppLoad> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'metabase.SESSION', value: session, url }]);
  const page = await context.newPage();
  const js: string[] = [];
  page.on('response', (r) => {
    const m = /\/app\/assets\/([^/?]+\.js)$/.exec(r.url());
    if (m) js.push(m[1]);
  });
  await page.goto(`${url}/dashboard/${id}`);
  await page.waitForFunction(`${READY} >= 1`, undefined, { timeout: 60_000, polling: 'raf' });
  const first = (await page.evaluate('performance.now()')) as number;
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await page.waitForFunction(`${READY} >= ${CARDS}`, undefined, { timeout: 60_000, polling: 'raf' });
  const all = (await page.evaluate('performance.now()')) as number;
  await context.close();
  return { first, all, js };
}

export function appReport(loads: AppLoad[], gz: (files: string[]) => number, kb: (n: number) => string): string[] {
  const first = loads.map((l) => l.first);
  const all = loads.map((l) => l.all);
  const js = [...new Set(loads.flatMap((l) => l.js))];
  return [
    '',
    `A ${CARDS}-card dashboard (the same displays in turn) opened in the application (/dashboard/:id, signed in by the`,
    `session cookie), ${loads.length} fresh contexts after a warm-up: the page's JavaScript ${kb(gz(js))} gzipped (${js.length} files).`,
    '',
    '| Timing | p50 | p95 |',
    '|---|---:|---:|',
    `| First card drawn | ${median(first).toFixed(0)} ms | ${percentile(first, 95).toFixed(0)} ms |`,
    `| All ${CARDS} cards drawn (scrolled to the end once the first had) | ${median(all).toFixed(0)} ms |` +
      ` ${percentile(all, 95).toFixed(0)} ms |`,
  ];
}
