/**
 * The web suite of `npm run bench`: what a reader of an embedded dashboard downloads and how soon it paints.
 * The built server (its own process, SQLite app DB, the Sample Database) serves an 8-card dashboard (bar, line,
 * area, pie, row, scalar, table, combo on ORDERS) as a signed embed; headless Chromium (playwright-core, CHROMIUM_PATH
 * or /usr/bin/chromium) opens /embed/dashboard/:token BENCH_WEB_RUNS times, each in a fresh browser context (cold
 * browser cache) after one warm-up load (the server warm: JIT, query cache). Figures: the JavaScript of the page,
 * gzipped (the entry chunk, and everything the 8-card page loads: charts are split out by type), first contentful
 * paint from Chromium's paint timing, and the time until every card has drawn (each visualization's data-state).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gzipSync } from 'node:zlib';
import { JwtService } from '@nestjs/jwt';
import { chromium } from 'playwright-core';
import { ADMIN, agent, api, log, login, median, percentile, ROOT, startServer, stopServer } from './http';
import { appDashboard, appReport, DISPLAYS, displayQueries, openAppDashboard, type AppLoad } from './web-app';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 10);
const SECRET = '9c3e5a7b1d2f4e6a'.repeat(4);
const ASSETS = path.join(ROOT, 'web', 'dist', 'assets');

const DRAWN = `(() => {
  const cards = document.querySelectorAll('[data-testid="dashcard"]');
  if (cards.length < 8) return false;
  if ([...cards].some((c) => c.getAttribute('data-state') !== 'ready')) return false;
  const viz = document.querySelectorAll('[data-testid="visualization"]');
  return viz.length >= 8 && [...viz].every((v) => v.getAttribute('data-state') === 'ready');
})()`;

interface Load {
  fcp: number;
  drawn: number;
  js: string[];
}

export async function webBench(): Promise<string> {
  if (!fs.existsSync(path.join(ROOT, 'web', 'dist', 'index.html'))) throw new Error('web/dist is missing: npm run build:web');
  const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && fs.existsSync(p));
  if (!executablePath) throw new Error('the web suite needs Chromium (apt-get install chromium, or set CHROMIUM_PATH)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-web-'));
  const server = await startServer(dataDir, { LOAD_SAMPLE_DATABASE: 'true' });
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  try {
    const admin = await login(server.url, ADMIN);
    const token = await embeddedDashboard(server.url, admin);
    const url = `${server.url}/embed/dashboard/${token}`;
    await load(browser, url); // warm-up
    const loads: Load[] = [];
    for (let i = 0; i < RUNS; i++) loads.push(await load(browser, url));
    log(`web: ${RUNS} loads, FCP median ${median(loads.map((l) => l.fcp)).toFixed(0)} ms`);
    const { db, meta } = await sampleDatabase(server.url, admin);
    const fieldId = (t: string, f: string) => meta.tables.find((x) => x.name === t)!.fields.find((x) => x.name === f)!.id;
    const orders = meta.tables.find((t) => t.name === 'ORDERS')!.id;
    const appDash = await appDashboard(server.url, admin, db, orders, fieldId);
    await openAppDashboard(browser, server.url, admin, appDash); // warm-up
    const appLoads: AppLoad[] = [];
    for (let i = 0; i < RUNS; i++) appLoads.push(await openAppDashboard(browser, server.url, admin, appDash));
    return [report(loads, entryChunk()), ...appReport(appLoads, gz, kb)].join('\n');
  } finally {
    await browser.close();
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One page load in a fresh context: its paint timing, when all 8 cards had drawn, and the JS files it fetched. */
async function load(browser: import('playwright-core').Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const js: string[] = [];
  page.on('response', (r) => {
    const m = /\/app\/assets\/([^/?]+\.js)$/.exec(r.url());
    if (m) js.push(m[1]);
  });
  await page.goto(url);
  await page.waitForFunction(DRAWN, undefined, { timeout: 60_000, polling: 'raf' });
  const drawn = (await page.evaluate('performance.now()')) as number;
  const fcp = (await page.evaluate(
    `(performance.getEntriesByName('first-contentful-paint')[0] || { startTime: NaN }).startTime`,
  )) as number;
  await context.close();
  return { fcp, drawn, js };
}

/** The entry chunk index.html loads (and what it preloads). */
function entryChunk(): string[] {
  const html = fs.readFileSync(path.join(ROOT, 'web', 'dist', 'index.html'), 'utf8');
  return [...html.matchAll(/\/app\/assets\/([^"']+\.js)/g)].map((m) => m[1]);
}

const gz = (files: string[]) => files.reduce((n, f) => n + gzipSync(fs.readFileSync(path.join(ASSETS, f))).length, 0);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function report(loads: Load[], entry: string[]): string {
  const all = [...new Set(loads.flatMap((l) => l.js))].sort();
  const charts = all.filter((f) => !entry.includes(f));
  const fcp = loads.map((l) => l.fcp);
  const drawn = loads.map((l) => l.drawn);
  const total = gz(all);
  return [
    '## Web pages: embedded dashboard weight and paint',
    '',
    `An 8-card dashboard (${DISPLAYS.join(', ')}) on the Sample Database as a signed embed, opened by headless Chromium`,
    `${loads.length} times, each in a fresh browser context (cold browser cache) after one warm-up load (warm server). Run on`,
    `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)},` +
      ` load average ${os.loadavg()[0].toFixed(1)} when it ended (the machine is shared:`,
    'a busy machine slows parsing and painting as much as the queries).',
    '',
    '| JavaScript (gzipped) | Size | Target |',
    '|---|---:|---:|',
    `| Entry chunk (${entry.join(', ')}) | ${kb(gz(entry))} | |`,
    `| Chart chunks the 8 cards loaded (${charts.length} files) | ${kb(gz(charts))} | |`,
    `| All JavaScript of the page | ${kb(total)} | < 400 kB ${total < 400 * 1024 ? '✓' : '✗'} |`,
    '',
    '| Timing | p50 | p95 | Target |',
    '|---|---:|---:|---:|',
    `| First contentful paint | ${median(fcp).toFixed(0)} ms | ${percentile(fcp, 95).toFixed(0)} ms |` +
      ` < 1500 ms ${percentile(fcp, 95) < 1500 ? '✓' : '✗'} |`,
    `| All 8 cards drawn | ${median(drawn).toFixed(0)} ms | ${percentile(drawn, 95).toFixed(0)} ms | |`,
  ].join('\n');
}

/** Eight questions on ORDERS, one per display, on a dashboard embedded without parameters: its token. */
async function embeddedDashboard(url: string, admin: string): Promise<string> {
  const { db, meta } = await sampleDatabase(url, admin);
  const table = (n: string) => meta.tables.find((t) => t.name === n)!;
  const field = (t: string, f: string) => table(t).fields.find((x) => x.name === f)!.id;
  for (const [key, value] of [
    ['embedding-secret-key', SECRET],
    ['enable-embedding-static', true],
  ] as const) {
    const r = await api(url, admin, 'PUT', `/api/setting/${key}`, { value });
    if (r.status >= 300) throw new Error(`could not set ${key}: ${JSON.stringify(r.json)}`);
  }
  const orders = table('ORDERS').id;
  const queries = displayQueries(field);
  const dashcards = [];
  for (const [i, display] of DISPLAYS.entries()) {
    const dataset_query = { database: db, type: 'query', query: { 'source-table': orders, ...queries[display] } };
    const r = await api(url, admin, 'POST', '/api/card', { name: `Web ${display}`, display, visualization_settings: {}, dataset_query });
    if (r.status !== 200) throw new Error(`card ${display}: ${JSON.stringify(r.json).slice(0, 300)}`);
    dashcards.push({
      id: -(i + 1),
      card_id: (r.json as { id: number }).id,
      row: Math.floor(i / 2) * 6,
      col: (i % 2) * 12,
      size_x: 12,
      size_y: 6,
      parameter_mappings: [],
      visualization_settings: {},
    });
  }
  const dash = (await api(url, admin, 'POST', '/api/dashboard', { name: 'Web bench' })).json as { id: number };
  const put = await api(url, admin, 'PUT', `/api/dashboard/${dash.id}`, { dashcards, enable_embedding: true, embedding_params: {} });
  if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
  return new JwtService().sign(
    { resource: { dashboard: dash.id }, params: {}, exp: Math.floor(Date.now() / 1000) + 3600 },
    { secret: SECRET, algorithm: 'HS256' },
  );
}

async function sampleDatabase(url: string, session: string) {
  for (let tries = 0; ; tries++) {
    const dbs = (await api(url, session, 'GET', '/api/database')).json as {
      data: Array<{ id: number; name: string; initial_sync_status: string }>;
    };
    const sample = dbs.data.find((d) => d.name === 'Sample Database' && d.initial_sync_status === 'complete');
    if (sample) {
      const meta = (await api(url, session, 'GET', `/api/database/${sample.id}/metadata`)).json as {
        tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
      };
      return { db: sample.id, meta };
    }
    if (tries > 600) throw new Error('the Sample Database did not sync');
    await new Promise((r) => setTimeout(r, 200));
  }
}
