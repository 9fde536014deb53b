/**
 * The `dashboards` suite of `npm run bench` (issue 33): a dashboard-viewing workload like Metabase's published load test.
 * N virtual users each open one 8-card dashboard of the Sample Database (SQLite, as a new instance generates it) in a
 * loop for BENCH_DASHBOARDS_SECONDS: the dashboard (GET), then its 8 dashcard queries and its Category parameter's
 * values, at most 6 requests at a time over the user's own keep-alive connections (a browser's 6 per host). Through one
 * user's session (every virtual user is that one user, who may read the collection but is no admin), through a public
 * link and through signed embeds (a token per virtual user); without a filter value and with one (each load one of the
 * four categories); cold (query caching off: every answer from a warehouse run or an identical run in flight) and warm
 * (caching on, the cache filled by one load of each variant first). BENCH_DASHBOARDS_USERS sizes for every surface,
 * BENCH_DASHBOARDS_PUBLIC_USERS the larger ones only through the public link.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { JwtService } from '@nestjs/jwt';
import { ADMIN, agent, api, cpuMs, log, login, percentile, startServer, stopServer } from './http';
import { Answer, completed, freePort, runCounts, send } from './load-http';
import { listenOverflows, sampleDatabase } from './crowd';

const SIZES = (process.env.BENCH_DASHBOARDS_USERS ?? '10,100,300').split(',').map(Number);
const PUBLIC_SIZES = (process.env.BENCH_DASHBOARDS_PUBLIC_USERS ?? '500').split(',').filter(Boolean).map(Number);
const SECONDS = Number(process.env.BENCH_DASHBOARDS_SECONDS ?? 8);
const SURFACES = (process.env.BENCH_DASHBOARDS_SURFACES ?? 'session,public,embed').split(',') as Surface[];
const CACHES = (process.env.BENCH_DASHBOARDS_CACHE ?? 'cold,warm').split(',') as Cache[];
const FILTERS = (process.env.BENCH_DASHBOARDS_FILTERS ?? 'none,category').split(',') as Filter[];
/** Requests of one virtual user in flight at once: a browser's connections per host. */
const BROWSER_SOCKETS = 6;
const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];
const SECRET = 'c0ffee5eb1e8d0c4'.repeat(4);
const VIEWER = { email: 'viewer@example.com', password: 'Viewer-bench-2026!' };
/** Metabase's published k6 figures for a dashboard-viewing workload (Metabase on 2 cores / 2 GB, Postgres app DB). */
const METABASE = { rps: 121, p95: 390, cores: 2 };

type Surface = 'session' | 'public' | 'embed';
type Cache = 'cold' | 'warm';
type Filter = 'none' | 'category';

interface Target {
  url: string;
  /** The server's process id, for its CPU time. */
  pid: number;
  metricsUrl: string;
  db: number;
  dashboard: number;
  uuid: string;
  session: string;
  dashcards: Array<{ id: number; card_id: number }>;
  mapping: Record<number, unknown>;
}

interface Run {
  surface: Surface;
  cache: Cache;
  filter: Filter;
  users: number;
  dashboard: Answer[];
  queries: Answer[];
  values: Answer[];
  wallMs: number;
  /** CPU time of the server's process (user and system) over the run. */
  cpuMs: number;
  runs: number;
  overflows: number;
  load: number;
}

const all = (r: Run) => [...r.dashboard, ...r.queries, ...r.values];

export async function dashboardCrowdBench(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-dashboards-'));
  const metricsPort = await freePort();
  const server = await startServer(dataDir, { LOAD_SAMPLE_DATABASE: 'true', METRICS_PORT: String(metricsPort) });
  const loadAtStart = os.loadavg();
  try {
    const admin = await login(server.url, ADMIN);
    const target = await setUp(server.url, server.proc.pid!, `http://127.0.0.1:${metricsPort}`, admin);
    const runs: Run[] = [];
    for (const cache of CACHES) {
      await setting(server.url, admin, 'enable-query-caching', cache === 'warm');
      for (const surface of SURFACES) {
        for (const filter of FILTERS) {
          // One load of each variant first: the first compile of each code path, and in the warm runs the cache filled.
          for (const value of filter === 'none' ? [null] : CATEGORIES) await load(target, surface, 0, value, new http.Agent());
          for (const users of [...SIZES, ...(surface === 'public' ? PUBLIC_SIZES : [])]) {
            runs.push(await crowd(target, surface, cache, filter, users));
            const r = runs.at(-1)!;
            log(`${surface} ${cache} ${filter} ${users}: ${rps(r).toFixed(0)} req/s, p95 ${ms(all(r), 95)} ms`);
          }
        }
      }
    }
    return report(runs, loadAtStart, os.loadavg());
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `users` virtual users looping over the dashboard for SECONDS (a load started before the end is finished). */
async function crowd(target: Target, surface: Surface, cache: Cache, filter: Filter, users: number): Promise<Run> {
  const before = await runCounts(target.metricsUrl, target.db);
  const overflowsBefore = listenOverflows();
  const cpuBefore = cpuMs(target.pid);
  const run: Run = {
    surface,
    cache,
    filter,
    users,
    dashboard: [],
    queries: [],
    values: [],
    wallMs: 0,
    cpuMs: 0,
    runs: 0,
    overflows: 0,
    load: 0,
  };
  const deadline = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: users }, async (_, vu) => {
      const browser = new http.Agent({ keepAlive: true, maxSockets: BROWSER_SOCKETS });
      const token = surface === 'embed' ? embedToken(target.dashboard, vu) : '';
      try {
        for (let i = 0; Date.now() < deadline; i++) {
          const value = filter === 'none' ? null : CATEGORIES[(vu + i) % CATEGORIES.length];
          const got = await load(target, surface, vu, value, browser, token);
          run.dashboard.push(got.dashboard);
          run.queries.push(...got.queries);
          run.values.push(got.values);
        }
      } finally {
        browser.destroy();
      }
    }),
  );
  run.wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  run.cpuMs = cpuMs(target.pid) - cpuBefore;
  run.runs = (await runCounts(target.metricsUrl, target.db)).runs - before.runs;
  run.overflows = listenOverflows() - overflowsBefore;
  run.load = os.loadavg()[0];
  return run;
}

/** One load of the dashboard by a browser: the dashboard, then its dashcard queries and parameter values, 6 at a time. */
async function load(
  target: Target,
  surface: Surface,
  vu: number,
  value: string | null,
  browser: http.Agent,
  token = surface === 'embed' ? embedToken(target.dashboard, vu) : '',
): Promise<{ dashboard: Answer; queries: Answer[]; values: Answer }> {
  const session = surface === 'session' ? target.session : undefined;
  const base =
    surface === 'session'
      ? `/api/dashboard/${target.dashboard}`
      : surface === 'public'
        ? `/api/public/dashboard/${target.uuid}`
        : `/api/embed/dashboard/${token}`;
  const dashboard = await send(browser, target.url, 'GET', base, { session });
  const requests: Array<() => Promise<Answer>> = target.dashcards.map((dc) => {
    if (surface === 'session') {
      const parameters = value === null ? [] : [{ id: 'cat', type: 'string/=', value: [value], target: target.mapping[dc.card_id] }];
      return () =>
        send(browser, target.url, 'POST', `${base}/dashcard/${dc.id}/card/${dc.card_id}/query`, { session, body: { parameters } });
    }
    const query =
      value === null
        ? ''
        : surface === 'public'
          ? `?parameters=${encodeURIComponent(JSON.stringify([{ id: 'cat', type: 'string/=', value: [value] }]))}`
          : `?category=${encodeURIComponent(value)}`;
    return () => send(browser, target.url, 'GET', `${base}/dashcard/${dc.id}/card/${dc.card_id}${query}`);
  });
  // The filter widget's values load with the cards, as the dashboard's page asks for them.
  requests.push(() => send(browser, target.url, 'GET', `${base}/params/cat/values`, { session }));
  const answers: Answer[] = new Array(requests.length);
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const i = next++;
      answers[i] = await requests[i]();
    }
  };
  await Promise.all(Array.from({ length: BROWSER_SOCKETS }, lane));
  return { dashboard, queries: answers.slice(0, -1), values: answers.at(-1)! };
}

/** Each virtual user its own token, as a host application signs one per page view. */
function embedToken(dashboard: number, vu: number): string {
  const exp = Math.floor(Date.now() / 1000) + 3600 + vu;
  return new JwtService().sign({ resource: { dashboard }, params: {}, exp }, { secret: SECRET, algorithm: 'HS256' });
}

async function setting(url: string, admin: string, key: string, value: unknown): Promise<void> {
  const r = await api(url, admin, 'PUT', `/api/setting/${key}`, { value });
  if (r.status >= 300) throw new Error(`could not set ${key}: ${JSON.stringify(r.json)}`);
}

interface Meta {
  tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
}

/**
 * Eight questions of a sales dashboard over the Sample Database's four tables, in a collection the viewer's group may
 * read; a Category filter on those it applies to (directly or through the product of an order or a review); shared by
 * a public link and embeddable with the filter enabled; cached for an hour when caching is on.
 */
export async function setUp(url: string, pid: number, metricsUrl: string, admin: string): Promise<Target> {
  const db = await sampleDatabase(url, admin);
  for (const [key, value] of [
    ['enable-public-sharing', true],
    ['enable-embedding-static', true],
    ['embedding-secret-key', SECRET],
    ['query-caching-min-ttl', 0],
  ] as const)
    await setting(url, admin, key, value);
  const meta = (await api(url, admin, 'GET', `/api/database/${db}/metadata`)).json as Meta;
  const table = (t: string) => meta.tables.find((x) => x.name === t)!.id;
  const fieldId = (t: string, f: string) => meta.tables.find((x) => x.name === t)!.fields.find((x) => x.name === f)!.id;
  const field = (t: string, f: string) => ['field', fieldId(t, f), null];
  const month = (t: string) => ['field', fieldId(t, 'CREATED_AT'), { 'temporal-unit': 'month' }];
  const category = (via: [string, string] | null) => [
    'dimension',
    ['field', fieldId('PRODUCTS', 'CATEGORY'), via ? { 'source-field': fieldId(...via) } : null],
  ];
  const cards: Array<{ query: Record<string, unknown>; target: unknown }> = [
    { query: { 'source-table': table('ORDERS'), aggregation: [['count']] }, target: category(['ORDERS', 'PRODUCT_ID']) },
    {
      query: { 'source-table': table('ORDERS'), aggregation: [['sum', field('ORDERS', 'TOTAL')]], breakout: [month('ORDERS')] },
      target: category(['ORDERS', 'PRODUCT_ID']),
    },
    {
      query: {
        'source-table': table('ORDERS'),
        aggregation: [['avg', field('ORDERS', 'DISCOUNT')]],
        breakout: [field('ORDERS', 'QUANTITY')],
      },
      target: category(['ORDERS', 'PRODUCT_ID']),
    },
    {
      query: { 'source-table': table('PRODUCTS'), aggregation: [['count']], breakout: [field('PRODUCTS', 'CATEGORY')] },
      target: category(null),
    },
    {
      query: {
        'source-table': table('PRODUCTS'),
        aggregation: [['avg', field('PRODUCTS', 'RATING')]],
        breakout: [field('PRODUCTS', 'VENDOR')],
      },
      target: category(null),
    },
    { query: { 'source-table': table('PEOPLE'), aggregation: [['count']], breakout: [field('PEOPLE', 'SOURCE')] }, target: null },
    { query: { 'source-table': table('PEOPLE'), aggregation: [['count']], breakout: [field('PEOPLE', 'STATE')] }, target: null },
    {
      query: { 'source-table': table('REVIEWS'), aggregation: [['avg', field('REVIEWS', 'RATING')]], breakout: [month('REVIEWS')] },
      target: category(['REVIEWS', 'PRODUCT_ID']),
    },
  ];
  const collection = await created(url, admin, '/api/collection', { name: 'Sales', color: '#509EE3' });
  const viewerId = await created(url, admin, '/api/user', { first_name: 'Dash', last_name: 'Viewer', ...VIEWER });
  const group = await created(url, admin, '/api/permissions/group', { name: 'Viewers' });
  const member = await api(url, admin, 'POST', '/api/permissions/membership', { group_id: group, user_id: viewerId });
  if (member.status !== 200) throw new Error(`membership: ${JSON.stringify(member.json)}`);
  const graph = (await api(url, admin, 'GET', '/api/collection/graph')).json as { revision: number };
  const grant = await api(url, admin, 'PUT', '/api/collection/graph', {
    revision: graph.revision,
    groups: { [group]: { [collection]: 'read' } },
  });
  if (grant.status !== 200) throw new Error(`collection grant: ${JSON.stringify(grant.json)}`);
  const mapping: Record<number, unknown> = {};
  const cardIds: number[] = [];
  for (const [i, c] of cards.entries()) {
    const id = await created(url, admin, '/api/card', {
      name: `Sales card ${i + 1}`,
      display: 'bar',
      visualization_settings: {},
      collection_id: collection,
      // Cached for an hour when caching is on: dashcard runs take the card's TTL (the dashboard's is not consulted).
      cache_ttl: 1,
      dataset_query: { database: db, type: 'query', query: c.query },
    });
    cardIds.push(id);
    mapping[id] = c.target;
  }
  const parameters = [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=', sectionId: 'string' }];
  const dashboard = await created(url, admin, '/api/dashboard', { name: 'Sales', collection_id: collection, parameters });
  const dashcards = cardIds.map((card_id, i) => ({
    id: -(i + 1),
    card_id,
    row: Math.floor(i / 2) * 4,
    col: (i % 2) * 12,
    size_x: 12,
    size_y: 4,
    parameter_mappings: cards[i].target ? [{ parameter_id: 'cat', card_id, target: cards[i].target }] : [],
    visualization_settings: {},
  }));
  const put = await api(url, admin, 'PUT', `/api/dashboard/${dashboard}`, {
    dashcards,
    enable_embedding: true,
    embedding_params: { category: 'enabled' },
  });
  if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
  const link = await api(url, admin, 'POST', `/api/dashboard/${dashboard}/public_link`);
  if (link.status !== 200) throw new Error(`public link: ${JSON.stringify(link.json)}`);
  const target: Target = {
    url,
    pid,
    metricsUrl,
    db,
    dashboard,
    uuid: (link.json as { uuid: string }).uuid,
    session: await login(url, VIEWER),
    dashcards: (put.json as { dashcards: Array<{ id: number; card_id: number }> }).dashcards,
    mapping,
  };
  // Every request of every surface must succeed once before anything is measured.
  for (const surface of ['session', 'public', 'embed'] as const) {
    const got = await load(target, surface, 0, CATEGORIES[0], new http.Agent());
    const bad = [got.dashboard, ...got.queries, got.values].find((a) => !ok(a));
    if (bad) throw new Error(`${surface}: a request failed: ${bad.status} ${bad.body.slice(0, 300)}`);
  }
  return target;
}

async function created(url: string, admin: string, route: string, body: unknown): Promise<number> {
  const r = await api(url, admin, 'POST', route, body);
  if (r.status !== 200) throw new Error(`${route}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
  return (r.json as { id: number }).id;
}

/** A success: 200, or a query's 202 whose status is completed. */
function ok(a: Answer): boolean {
  return a.status === 200 || (a.status === 202 && completed(a));
}

function ms(xs: Answer[], p: number): string {
  return xs.length
    ? percentile(
        xs.map((a) => a.ms),
        p,
      ).toFixed(0)
    : '-';
}

function rps(r: Run): number {
  return (all(r).length / r.wallMs) * 1000;
}

function p95(xs: Answer[]): number {
  return percentile(
    xs.map((a) => a.ms),
    95,
  );
}

function report(runs: Run[], loadStart: number[], loadEnd: number[]): string {
  const failed = (r: Run) => all(r).filter((a) => !ok(a)).length;
  const resets = (r: Run) => all(r).filter((a) => a.status === 0).length;
  const row = (r: Run) =>
    `| ${r.surface} | ${r.cache} | ${r.filter === 'none' ? 'no' : 'yes'} | ${r.users} | ${all(r).length.toLocaleString('en-US')} |` +
    ` ${rps(r).toFixed(0)} (${(rps(r) / METABASE.rps).toFixed(1)}x) | ${ms(all(r), 50)} | ${p95(all(r)).toFixed(0)}` +
    ` (${(p95(all(r)) / METABASE.p95).toFixed(2)}x) | ${ms(all(r), 99)} | ${ms(r.dashboard, 50)} / ${ms(r.dashboard, 95)} |` +
    ` ${ms(r.queries, 95)} | ${ms(r.values, 95)} | ${failed(r)} (${resets(r)}, ${r.overflows}) | ${r.runs.toLocaleString('en-US')} |` +
    ` ${(r.cpuMs / all(r).length).toFixed(2)} | ${r.load.toFixed(1)} |`;
  const at = (users: number) => runs.filter((r) => r.users === users);
  const sum = (rs: Run[], f: (r: Run) => number) => rs.reduce((n, r) => n + f(r), 0);
  const small = at(10);
  const smallLine = small.length
    ? `lowest requests/s ${Math.min(...small.map(rps)).toFixed(0)} (Metabase ${METABASE.rps}), highest p95 ` +
      `${Math.max(...small.map((r) => p95(all(r)))).toFixed(0)} ms (Metabase ${METABASE.p95}); ` +
      `${small.filter((r) => rps(r) > METABASE.rps && p95(all(r)) < METABASE.p95).length} of ${small.length} runs meet both`
    : 'not run';
  const hundred = at(100);
  const hundredLine = hundred.length
    ? `${sum(hundred, failed)} failed; lowest requests/s ${Math.min(...hundred.map(rps)).toFixed(0)}`
    : 'not run';
  return [
    '## Dashboards under a crowd (issue 33)',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    'Virtual users each open one 8-card dashboard of the Sample Database (SQLite, as a new instance generates it) in a',
    `loop for ${SECONDS} s: GET the dashboard, then its 8 dashcard queries and its Category filter's values, at most`,
    `${BROWSER_SOCKETS} at a time over the user's own keep-alive connections, with no pause between loads. Through one user's`,
    'session (every virtual user is that one reader, no admin, so the per-user shares apply to all of them: 10 of their',
    'requests worked on at once, MAX_QUERY_REQUESTS_PER_USER, the rest waiting their turn; on 2026-11-29, session only,',
    '100 users: 407-413 requests/s without that limit, 342-347 with it, as fewer identical queries are in flight to',
    'share a run: 221 against 623 runs at 10 users), a',
    'public link, and signed embeds (a token per virtual user); without a filter value, and with one (each load one of',
    'four categories, so four times the distinct queries); cold: query caching off, every answer from a warehouse run or',
    'from an identical run in flight; warm: caching on, filled by one load of each variant first. The server runs as',
    '`npm start` does, the load generator on the same cores.',
    '',
    `Metabase's published k6 dashboard workload: ${METABASE.rps} requests/s with a p95 of ${METABASE.p95} ms on ${METABASE.cores} cores`,
    '(Postgres app DB), 136 requests/s and p95 82 ms on 4; about 10 requests in flight. The ratios in brackets are to',
    `${METABASE.rps} requests/s and ${METABASE.p95} ms. Failed: any answer but a 200 or a completed 202, in brackets the connections`,
    'reset or refused, then the connections the kernel dropped for a full accept queue meanwhile (whole machine). Warehouse',
    'runs: query slots taken on the Sample Database (identical queries in flight share one, cached answers take none).',
    "Server CPU: the server process's user and system time over the run per request, in ms (its warehouse workers, the",
    'SQLite query processes, not included): the figure the load of the machine changes least.',
    '',
    `Load average (1, 5, 15 min) at the start: ${loadStart.map((l) => l.toFixed(1)).join(', ')}; at the end:`,
    `${loadEnd.map((l) => l.toFixed(1)).join(', ')}, on ${os.cpus().length} cores shared with other work; the last column is the`,
    '1-minute figure at the end of each run.',
    '',
    '| through | cache | filter | users | requests | requests/s (x Metabase) | p50 (ms) | p95 (ms) (x Metabase) | p99 (ms) |' +
      ' dashboard GET p50 / p95 (ms) | dashcard query p95 (ms) | filter values p95 (ms) | failed (reset, dropped) |' +
      ' warehouse runs | server CPU per request (ms) | load |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map(row),
    '',
    `- At 10 users (Metabase's concurrency): ${smallLine}. Target: p95 under ${METABASE.p95} ms and above ${METABASE.rps} requests/s.`,
    `- At 100 users: ${hundredLine}. Target: 0 failed and at least 3x the 115-143 requests/s measured before (issue 33).`,
    `- At 300 users: ${sum(at(300), resets)} connections reset and ${sum(at(300), failed)} failed. Target: 0 and 0.`,
    ...PUBLIC_SIZES.map(
      (n) => `- At ${n} users (public link only): ${sum(at(n), failed)} failed, ${sum(at(n), resets)} reset. Target: 0 failed.`,
    ),
    '',
  ].join('\n');
}
