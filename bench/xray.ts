/**
 * The xray suite of `npm run bench`: the time to build the ORDERS x-ray (Sample Database metadata: ORDERS with the
 * fields of PRODUCTS and PEOPLE it links to) without running its cards: template choice, field matching and scoring,
 * cards, filters, layout and the dashboard answer. The builder is pure, so it is timed in-process, one build at a time.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildXray } from '../src/modules/automagic/dashboard-builder';
import { chooseTemplate } from '../src/modules/automagic/field-matching';
import { TEMPLATES } from '../src/modules/automagic/templates';
import { dashboardView } from '../src/modules/automagic/xray-view';
import { ordersRoot } from '../src/modules/automagic/xray-fixture';
import { ADMIN, api, log, login, median, percentile, startServer, stopServer } from './http';

const RUNS = Number(process.env.BENCH_RUNS ?? 5000);
const WARMUP = 500;
const HTTP_RUNS = Number(process.env.BENCH_HTTP_RUNS ?? 200);

function buildOnce(show: number | 'all' | null): number {
  const root = ordersRoot();
  const t0 = process.hrtime.bigint();
  const template = chooseTemplate(TEMPLATES.table, root.fields);
  const built = buildXray(root, template, { show, mayQuery: () => true });
  const view = dashboardView(built, {
    creatorId: 1,
    parameterSource: root.sourceTable,
    related: {},
    moreUrl: null,
    transientName: built.name,
    transientFilters: null,
    paired: false,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (view.dashcards.length === 0) throw new Error('empty x-ray');
  return ms;
}

/** GET of the ORDERS x-ray from a server with the Sample Database (SQLite, as shipped): metadata reads, permission checks, build, JSON. */
async function overHttp(): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-xray-'));
  const server = await startServer(dataDir, { LOAD_SAMPLE_DATABASE: 'true' });
  try {
    const admin = await login(server.url, ADMIN);
    const deadline = Date.now() + 300_000;
    let orders: number | undefined;
    while (orders === undefined) {
      if (Date.now() > deadline) throw new Error('the Sample Database was not synced in time');
      const dbs = (await api(server.url, admin, 'GET', '/api/database')).json as {
        data: Array<{ id: number; name: string; initial_sync_status: string }>;
      };
      const sample = dbs.data.find((d) => d.name === 'Sample Database' && d.initial_sync_status === 'complete');
      if (sample) {
        const meta = (await api(server.url, admin, 'GET', `/api/database/${sample.id}/metadata`)).json as {
          tables: Array<{ id: number; name: string }>;
        };
        orders = meta.tables.find((t) => t.name === 'ORDERS')?.id;
      }
      if (orders === undefined) await new Promise((r) => setTimeout(r, 250));
    }
    // Two other GETs on the same server as yardsticks: the lightest one, and the query builder's table metadata.
    const routes: Array<[string, string]> = [
      ['over HTTP (admin, default show)', `/api/automagic-dashboards/table/${orders}`],
      ['yardstick: GET /api/user/current', '/api/user/current'],
      ['yardstick: GET /api/table/:id/query_metadata', `/api/table/${orders}/query_metadata`],
    ];
    const rows: string[] = [];
    for (const [label, route] of routes) {
      log(`GET ${route} x ${HTTP_RUNS} ...`);
      for (let i = 0; i < 20; i++) await api(server.url, admin, 'GET', route);
      const times: number[] = [];
      let cards: number | string = '';
      for (let i = 0; i < HTTP_RUNS; i++) {
        const r = await api(server.url, admin, 'GET', route);
        if (r.status !== 200) throw new Error(`${route}: ${r.status} ${JSON.stringify(r.json).slice(0, 200)}`);
        times.push(r.ms);
        const dashcards = (r.json as { dashcards?: Array<{ card: unknown }> }).dashcards;
        if (dashcards) cards = dashcards.filter((dc) => dc.card).length;
      }
      rows.push(`| ${label} | ${cards} | ${median(times).toFixed(2)} ms | ${percentile(times, 95).toFixed(2)} ms |`);
    }
    return rows;
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function xrayBench(): Promise<string> {
  const load = os.loadavg()[0].toFixed(1);
  const rows: string[] = [];
  for (const show of [null, 'all'] as const) {
    for (let i = 0; i < WARMUP; i++) buildOnce(show);
    const times = Array.from({ length: RUNS }, () => buildOnce(show));
    const root = ordersRoot();
    const cards = buildXray(root, chooseTemplate(TEMPLATES.table, root.fields), { show, mayQuery: () => true }).cards.length;
    rows.push(
      `| ${show === null ? 'default (15 cards at most)' : 'show=all'} | ${cards} |` +
        ` ${(median(times) * 1000).toFixed(0)} µs | ${(percentile(times, 95) * 1000).toFixed(0)} µs |`,
    );
  }
  rows.push(...(await overHttp()));
  return [
    '## Building the ORDERS x-ray',
    '',
    '`BENCH_SUITE=xray`: the automatic dashboard of ORDERS built from its metadata' +
      ' (15 fields with those of the linked PRODUCTS and PEOPLE), without running its cards;' +
      ` ${RUNS} builds after ${WARMUP} warm-up ones, in-process (${os.cpus()[0]?.model ?? 'cpu'} x ${os.cpus().length},` +
      ` load average ${load} at the start, Node ${process.version}); then ${HTTP_RUNS} GETs of it from a server` +
      ' (SQLite app DB, the Sample Database as shipped), which adds the metadata reads, permission checks and the JSON answer.',
    '',
    '| show | cards | median | p95 |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
