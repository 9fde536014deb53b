/**
 * The dashboard suite of `npm run bench`: a 25-card dashboard on the Sample Database at BENCH_ORDERS orders (DuckDB,
 * written once into bench/data/), its dashcard queries fired at once as a browser does (six connections per host),
 * first with nothing cached, then with the result cache warm. Wall time until the last answer, and the server's
 * peak resident memory.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, agent, api, DATA, log, login, median, startServer, stopServer } from './http';
import { connect, ensureDuckdb, ORDERS } from './query-overhead';

const CARDS = 25;
const WARM_RUNS = 5;

interface Meta {
  tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
}

export async function dashboardBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const duckFile = path.join(DATA, `sample-${ORDERS}.duckdb`);
  await ensureDuckdb(duckFile);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-dashboard-'));
  const server = await startServer(dataDir);
  try {
    const admin = await login(server.url, ADMIN);
    const ids = await connect(server.url, admin, 'duckdb', { db: duckFile });
    const meta = (await api(server.url, admin, 'GET', `/api/database/${ids.db}/metadata`)).json as Meta;
    const field = (t: string, f: string) => meta.tables.find((x) => x.name === t)!.fields.find((x) => x.name === f)!.id;
    const table = (t: string) => meta.tables.find((x) => x.name === t)!.id;
    for (const [key, value] of [
      ['enable-query-caching', true],
      ['query-caching-min-ttl', 0],
    ] as const) {
      const r = await api(server.url, admin, 'PUT', `/api/setting/${key}`, { value });
      if (r.status >= 300) throw new Error(`could not set ${key}: ${JSON.stringify(r.json)}`);
    }
    const cards: number[] = [];
    for (let i = 0; i < CARDS; i++) {
      const r = await api(server.url, admin, 'POST', '/api/card', {
        name: `Dashboard card ${i + 1}`,
        display: 'line',
        visualization_settings: {},
        cache_ttl: 1,
        dataset_query: query(i, ids.db, table, field),
      });
      if (r.status !== 200) throw new Error(`card ${i}: ${JSON.stringify(r.json).slice(0, 300)}`);
      cards.push((r.json as { id: number }).id);
    }
    const dash = (await api(server.url, admin, 'POST', '/api/dashboard', { name: 'Bench dashboard' })).json as { id: number };
    const dashcards = cards.map((card_id, i) => ({
      id: -(i + 1),
      card_id,
      row: Math.floor(i / 3) * 4,
      col: (i % 3) * 8,
      size_x: 8,
      size_y: 4,
      parameter_mappings: [],
      visualization_settings: {},
    }));
    const put = await api(server.url, admin, 'PUT', `/api/dashboard/${dash.id}`, { dashcards });
    if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
    const placed = (put.json as { dashcards: Array<{ id: number; card_id: number }> }).dashcards;

    const cold = await loadDashboard(server.url, admin, dash.id, placed);
    log(`cold: ${cold.ms.toFixed(0)} ms (${cold.cached} of ${placed.length} from the cache)`);
    const warm: number[] = [];
    let warmCached = 0;
    for (let i = 0; i < WARM_RUNS; i++) {
      const w = await loadDashboard(server.url, admin, dash.id, placed);
      warm.push(w.ms);
      warmCached = Math.min(i === 0 ? w.cached : warmCached, w.cached);
    }
    log(`warm: median ${median(warm).toFixed(0)} ms`);
    const status = fs.readFileSync(`/proc/${server.proc.pid}/status`, 'utf8');
    const peakMb = Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0) / 1024;
    return report(cold, median(warm), warmCached, placed.length, peakMb);
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** GET the dashboard, then every dashcard query at once over six keep-alive connections; until the last answer. */
async function loadDashboard(
  url: string,
  session: string,
  dashboard: number,
  dashcards: Array<{ id: number; card_id: number }>,
): Promise<{ ms: number; cached: number }> {
  const browser = new http.Agent({ keepAlive: true, maxSockets: 6 });
  const started = process.hrtime.bigint();
  try {
    await request(browser, url, session, 'GET', `/api/dashboard/${dashboard}`);
    const answers = await Promise.all(
      dashcards.map((dc) =>
        request(browser, url, session, 'POST', `/api/dashboard/${dashboard}/dashcard/${dc.id}/card/${dc.card_id}/query`, {
          parameters: [],
        }),
      ),
    );
    for (const a of answers)
      if ((a as { status?: string }).status !== 'completed') throw new Error(`a dashcard query failed: ${JSON.stringify(a).slice(0, 300)}`);
    return {
      ms: Number(process.hrtime.bigint() - started) / 1e6,
      cached: answers.filter((a) => (a as { cached?: unknown }).cached).length,
    };
  } finally {
    browser.destroy();
  }
}

function request(through: http.Agent, url: string, session: string, method: string, route: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + route,
      {
        method,
        agent: through,
        headers: {
          'Content-Type': 'application/json',
          'X-Metabase-Session': session,
          ...(payload ? { 'Content-Length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString() || 'null')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Twenty-five questions of the kinds a sales dashboard holds, over all the orders. */
function query(i: number, db: number, table: (t: string) => number, field: (t: string, f: string) => number): Record<string, unknown> {
  const units = ['day', 'week', 'month', 'quarter', 'year'];
  const created = (unit: string) => ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': unit }];
  const viaProduct = (f: string) => ['field', field('PRODUCTS', f), { 'source-field': field('ORDERS', 'PRODUCT_ID') }];
  const viaUser = (f: string) => ['field', field('PEOPLE', f), { 'source-field': field('ORDERS', 'USER_ID') }];
  const aggregations = [
    ['count'],
    ['sum', ['field', field('ORDERS', 'TOTAL'), null]],
    ['avg', ['field', field('ORDERS', 'QUANTITY'), null]],
    ['distinct', ['field', field('ORDERS', 'USER_ID'), null]],
    ['max', ['field', field('ORDERS', 'TOTAL'), null]],
  ];
  const breakouts = [created(units[i % 5]), viaProduct('CATEGORY'), viaUser('STATE'), viaUser('SOURCE'), created('month-of-year')];
  return {
    database: db,
    type: 'query',
    query: { 'source-table': table('ORDERS'), aggregation: [aggregations[i % 5]], breakout: [breakouts[Math.floor(i / 5) % 5]] },
  };
}

function report(cold: { ms: number; cached: number }, warmMs: number, warmCached: number, n: number, peakMb: number): string {
  return [
    '## A 25-card dashboard',
    '',
    `The Sample Database with ${ORDERS.toLocaleString('en-US')} orders in DuckDB; 25 questions (counts, sums, averages, distinct`,
    'counts by time, product category, customer state and source, through implicit joins) on one dashboard. The dashboard',
    'and all its dashcard queries are requested at once over six keep-alive connections, as a browser does; the time is',
    'until the last answer has arrived.',
    '',
    '| load | wall time (ms) | answers from the result cache |',
    '|---|---:|---:|',
    `| cold (first load after start, nothing cached) | ${cold.ms.toFixed(0)} | ${cold.cached} of ${n} |`,
    `| warm (median of ${WARM_RUNS} loads) | ${warmMs.toFixed(0)} | ${warmCached} of ${n} |`,
    '',
    'Cold means the result cache is empty: DuckDB has run each query once before, when its card was saved (a saved',
    "question's result metadata comes from a run).",
    '',
    `Server peak resident memory over the suite: ${peakMb.toFixed(0)} MB.`,
    '',
  ].join('\n');
}
