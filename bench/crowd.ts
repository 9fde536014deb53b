/**
 * The crowd suite of `npm run bench` (issue 33): BENCH_CROWD_USERS virtual users open one public 8-card dashboard of
 * the Sample Database (SQLite, generated at start, as a new instance has it) at once, BENCH_CROWD_LOADS times each:
 * GET /api/public/dashboard/:uuid, then its 8 dashcard queries over the user's own keep-alive connections. The
 * identical queries in flight share one warehouse run: the suite counts the runs (query slots taken, from the
 * server's metrics), and samples the connection-pool diagnostics to find the most runs in flight at once. Two
 * crowds (BENCH_CROWD_SOCKETS): with a browser's 6 connections per user, then with 1, whose 500 connections fit
 * the server's accept queue, to tell the queries' share of the figures from the connections'.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, agent, api, log, login, percentile, startServer, stopServer } from './http';
import { Answer, completed, freePort, runCounts, send } from './load-http';

const USERS = Number(process.env.BENCH_CROWD_USERS ?? 500);
const LOADS = Number(process.env.BENCH_CROWD_LOADS ?? 2);
/** Connections per virtual user, one crowd each: a browser's 6 per host, then 1. */
const SOCKETS = (process.env.BENCH_CROWD_SOCKETS ?? '6,1').split(',').map(Number);
const CARDS = 8;

interface Meta {
  tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
}

interface Crowd {
  sockets: number;
  dashboard: Answer[];
  queries: Answer[];
  wallMs: number;
  runs: number;
  shared: number;
  /** The most warehouse runs of the sample database in flight (running or waiting for a slot) in any sample. */
  peakRuns: number;
  samples: number;
  /** Connections the kernel dropped because the server's accept queue was full (whole machine: TcpExt ListenOverflows). */
  listenOverflows: number;
  load: [number, number];
}

interface Target {
  url: string;
  metricsUrl: string;
  admin: string;
  db: number;
  uuid: string;
  routes: string[];
}

export async function crowdBench(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-crowd-'));
  const metricsPort = await freePort();
  const server = await startServer(dataDir, { LOAD_SAMPLE_DATABASE: 'true', METRICS_PORT: String(metricsPort) });
  try {
    const admin = await login(server.url, ADMIN);
    const db = await sampleDatabase(server.url, admin);
    const { uuid, dashcards } = await publicDashboard(server.url, admin, db);
    const routes = dashcards.map((dc) => `/api/public/dashboard/${uuid}/dashcard/${dc.id}/card/${dc.card_id}`);
    const target = { url: server.url, metricsUrl: `http://127.0.0.1:${metricsPort}`, admin, db, uuid, routes };
    // One viewer first, so that the crowd measures queries, not the first compile of each code path.
    await viewer(target, 1, 1);
    const crowds: Crowd[] = [];
    for (const sockets of SOCKETS) {
      crowds.push(await crowd(target, sockets));
      log(`crowd over ${sockets} connection(s) each: ${crowds.at(-1)!.wallMs.toFixed(0)} ms, ${crowds.at(-1)!.runs} warehouse runs`);
    }
    return report(crowds);
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** USERS viewers at once, each over `sockets` connections, while the diagnostics are sampled. */
async function crowd(target: Target, sockets: number): Promise<Crowd> {
  const loadBefore = os.loadavg()[0];
  const before = await runCounts(target.metricsUrl, target.db);
  const overflowsBefore = listenOverflows();
  let crowding = true;
  const peak = { runs: 0, samples: 0 };
  const sampler = (async () => {
    const through = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (crowding) {
      const a = await send(through, target.url, 'GET', '/api/util/diagnostic_info/connection_pool_info', { session: target.admin });
      const info = a.status === 200 ? JSON.parse(a.body)['connection-pools'][`db-${target.db}`] : null;
      if (info) peak.runs = Math.max(peak.runs, (info.numRunningQueries ?? 0) + (info.numQueuedQueries ?? 0));
      peak.samples++;
    }
    through.destroy();
  })();
  const started = process.hrtime.bigint();
  const views = await Promise.all(Array.from({ length: USERS }, () => viewer(target, sockets, LOADS)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  crowding = false;
  await sampler;
  const after = await runCounts(target.metricsUrl, target.db);
  return {
    sockets,
    dashboard: views.flatMap((v) => v.dashboard),
    queries: views.flatMap((v) => v.queries),
    wallMs,
    runs: after.runs - before.runs,
    shared: after.shared - before.shared,
    peakRuns: peak.runs,
    samples: peak.samples,
    listenOverflows: listenOverflows() - overflowsBefore,
    load: [loadBefore, os.loadavg()[0]],
  };
}

/** One virtual user: `loads` times the dashboard, then its dashcard queries over `sockets` keep-alive connections. */
async function viewer(target: Target, sockets: number, loads: number): Promise<{ dashboard: Answer[]; queries: Answer[] }> {
  const browser = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const dashboard: Answer[] = [];
  const queries: Answer[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      dashboard.push(await send(browser, target.url, 'GET', `/api/public/dashboard/${target.uuid}`));
      queries.push(...(await Promise.all(target.routes.map((r) => send(browser, target.url, 'GET', r)))));
    }
  } finally {
    browser.destroy();
  }
  return { dashboard, queries };
}

/** The Sample Database's id once its first sync is complete. */
export async function sampleDatabase(url: string, admin: string): Promise<number> {
  for (;;) {
    const list = (await api(url, admin, 'GET', '/api/database')).json as {
      data: Array<{ id: number; name: string; initial_sync_status: string }>;
    };
    const sample = list.data.find((d) => d.name === 'Sample Database');
    if (sample && sample.initial_sync_status === 'complete') return sample.id;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Eight questions of the kinds a sales dashboard holds, over the Sample Database's four tables, shared by a public link. */
async function publicDashboard(url: string, admin: string, db: number) {
  const meta = (await api(url, admin, 'GET', `/api/database/${db}/metadata`)).json as Meta;
  const table = (t: string) => meta.tables.find((x) => x.name === t)!.id;
  const field = (t: string, f: string) => ['field', meta.tables.find((x) => x.name === t)!.fields.find((x) => x.name === f)!.id, null];
  const month = (t: string) => ['field', (field(t, 'CREATED_AT') as [string, number])[1], { 'temporal-unit': 'month' }];
  const queries = [
    { 'source-table': table('ORDERS'), aggregation: [['count']] },
    { 'source-table': table('ORDERS'), aggregation: [['sum', field('ORDERS', 'TOTAL')]], breakout: [month('ORDERS')] },
    { 'source-table': table('ORDERS'), aggregation: [['avg', field('ORDERS', 'DISCOUNT')]], breakout: [field('ORDERS', 'QUANTITY')] },
    { 'source-table': table('PRODUCTS'), aggregation: [['count']], breakout: [field('PRODUCTS', 'CATEGORY')] },
    { 'source-table': table('PRODUCTS'), aggregation: [['avg', field('PRODUCTS', 'RATING')]], breakout: [field('PRODUCTS', 'VENDOR')] },
    { 'source-table': table('PEOPLE'), aggregation: [['count']], breakout: [field('PEOPLE', 'SOURCE')] },
    { 'source-table': table('PEOPLE'), aggregation: [['count']], breakout: [field('PEOPLE', 'STATE')] },
    { 'source-table': table('REVIEWS'), aggregation: [['avg', field('REVIEWS', 'RATING')]], breakout: [month('REVIEWS')] },
  ];
  const cards: number[] = [];
  for (const [i, query] of queries.slice(0, CARDS).entries()) {
    const r = await api(url, admin, 'POST', '/api/card', {
      name: `Crowd card ${i + 1}`,
      display: 'bar',
      visualization_settings: {},
      dataset_query: { database: db, type: 'query', query },
    });
    if (r.status !== 200) throw new Error(`card ${i}: ${JSON.stringify(r.json).slice(0, 300)}`);
    cards.push((r.json as { id: number }).id);
  }
  const dash = (await api(url, admin, 'POST', '/api/dashboard', { name: 'Crowd' })).json as { id: number };
  const dashcards = cards.map((card_id, i) => ({
    id: -(i + 1),
    card_id,
    row: Math.floor(i / 2) * 4,
    col: (i % 2) * 12,
    size_x: 12,
    size_y: 4,
    parameter_mappings: [],
    visualization_settings: {},
  }));
  const put = await api(url, admin, 'PUT', `/api/dashboard/${dash.id}`, { dashcards });
  if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
  const sharing = await api(url, admin, 'PUT', '/api/setting/enable-public-sharing', { value: true });
  if (sharing.status >= 300) throw new Error(`could not turn public sharing on: ${JSON.stringify(sharing.json)}`);
  const link = await api(url, admin, 'POST', `/api/dashboard/${dash.id}/public_link`);
  if (link.status !== 200) throw new Error(`public link: ${JSON.stringify(link.json)}`);
  return {
    uuid: (link.json as { uuid: string }).uuid,
    dashcards: (put.json as { dashcards: Array<{ id: number; card_id: number }> }).dashcards,
  };
}

/** The kernel's count of connections dropped for a full accept queue, on the whole machine (0 where /proc is not Linux's). */
export function listenOverflows(): number {
  try {
    const [names, values] = fs
      .readFileSync('/proc/net/netstat', 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('TcpExt:'))
      .map((l) => l.split(/\s+/));
    return Number(values[names.indexOf('ListenOverflows')] ?? 0);
  } catch {
    return 0;
  }
}

function report(crowds: Crowd[]): string {
  const ms = (xs: Answer[], p: number) =>
    percentile(
      xs.map((a) => a.ms),
      p,
    ).toFixed(0);
  const section = (c: Crowd) => {
    const all = [...c.dashboard, ...c.queries];
    const failed = all.filter((a) => (a.status === 202 ? !completed(a) : a.status !== 200));
    const resets = all.filter((a) => a.status === 0).length;
    const line = (name: string, xs: Answer[]) =>
      `| ${name} | ${xs.length.toLocaleString('en-US')} | ${ms(xs, 50)} | ${ms(xs, 95)} | ${ms(xs, 99)} |`;
    return [
      `### ${c.sockets} connection${c.sockets === 1 ? '' : 's'} per user`,
      '',
      `- Requests: ${all.length.toLocaleString('en-US')} in ${(c.wallMs / 1000).toFixed(1)} s,` +
        ` ${((all.length / c.wallMs) * 1000).toFixed(0)} requests/s; failed: ${failed.length} (connections refused or reset:` +
        ` ${resets}; connections the kernel dropped for a full accept queue meanwhile, whole machine: ${c.listenOverflows}).` +
        ' Target: 0 failed.',
      `- Warehouse runs: ${c.runs.toLocaleString('en-US')} for ${c.queries.length.toLocaleString('en-US')} dashcard queries` +
        ` (${c.shared.toLocaleString('en-US')} answered by an identical run in flight), ${CARDS} distinct queries.`,
      `- Most runs in flight at once (running or waiting for a slot), in ${c.samples} samples of the connection-pool` +
        ` diagnostics: ${c.peakRuns}, against ${CARDS} distinct queries. Target: at most one run per distinct query in` +
        ` flight: ${c.peakRuns <= CARDS ? 'met' : 'missed'} in the samples taken.`,
      `- Load average (1 min) at the start and the end: ${c.load.map((l) => l.toFixed(1)).join(' and ')} on ${os.cpus().length} cores.`,
      '',
      '| requests | count | p50 (ms) | p95 (ms) | p99 (ms) |',
      '|---|---:|---:|---:|---:|',
      line('dashboard (GET /api/public/dashboard/:uuid)', c.dashboard),
      line('dashcard queries', c.queries),
      line('all', all),
      '',
    ];
  };
  return [
    '## A crowd on one public dashboard (issue 33)',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    `${USERS} virtual users open one public dashboard of ${CARDS} cards on the Sample Database (SQLite, as a new instance`,
    `generates it) at once, ${LOADS} times each: GET /api/public/dashboard/:uuid, then its ${CARDS} dashcard queries over`,
    "the user's own keep-alive connections (a latency includes the time a request waits for one of them). The server",
    'runs as `npm start` does; the load generator shares its cores. Query caching is off (the default): every answer',
    'comes from a warehouse run or from an identical run in flight. First with a browser’s 6 connections per user',
    '(3,000 connections opened at once), then with 1 (500, within the accept queue of the server’s listening socket):',
    'connections the kernel drops are retried by the client after 1, 3, 7... s, which shows in the latencies.',
    '',
    ...crowds.flatMap(section),
  ].join('\n');
}
