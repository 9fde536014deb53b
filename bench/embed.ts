/**
 * The embed suite of `npm run bench`: an 8-card dashboard on the Sample Database (DuckDB, BENCH_EMBED_ORDERS orders,
 * written once into bench/data/), embedded with a locked `category` parameter and also shared by a public link. A
 * burst of BENCH_EMBED_VIEWERS distinct valid tokens (each a viewer loading the dashboard and its 8 dashcards), sent
 * by the bench process to the server (its own process) on loopback over BENCH_EMBED_CONNECTIONS keep-alive connections
 * with the result cache warm:
 * p50/p95 latency per request and requests/s; the same burst through the public link; and what verifying one token
 * costs, measured in process.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { JwtService } from '@nestjs/jwt';
import { verifyEmbedToken } from '../src/modules/embedding/embed-token';
import { writeSampleDatabase } from '../src/sample-data/write';
import { ADMIN, agent, api, DATA, log, login, median, percentile, startServer, stopServer } from './http';
import { connect } from './query-overhead';

const ORDERS = Number(process.env.BENCH_EMBED_ORDERS ?? 100_000);
const VIEWERS = Number(process.env.BENCH_EMBED_VIEWERS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_EMBED_CONNECTIONS ?? 16);
const CARDS = 8;
const SECRET = '5eb1e8d0c4a7f2b3'.repeat(4);
const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];

interface Meta {
  tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
}

interface Burst {
  requests: number;
  wallMs: number;
  latencies: number[];
}

export async function embedBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const duckFile = path.join(DATA, `embed-${ORDERS}.duckdb`);
  if (!fs.existsSync(duckFile)) {
    log(`Writing ${ORDERS.toLocaleString('en-US')} orders into ${duckFile} ...`);
    await writeSampleDatabase({ engine: 'duckdb', file: duckFile }, { orders: ORDERS });
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-embed-'));
  const server = await startServer(dataDir);
  try {
    const admin = await login(server.url, ADMIN);
    const ids = await connect(server.url, admin, 'duckdb', { db: duckFile });
    const meta = (await api(server.url, admin, 'GET', `/api/database/${ids.db}/metadata`)).json as Meta;
    const field = (t: string, f: string) => meta.tables.find((x) => x.name === t)!.fields.find((x) => x.name === f)!.id;
    for (const [key, value] of [
      ['enable-query-caching', true],
      ['query-caching-min-ttl', 0],
      ['embedding-secret-key', SECRET],
      ['enable-embedding-static', true],
      ['enable-public-sharing', true],
    ] as const) {
      const r = await api(server.url, admin, 'PUT', `/api/setting/${key}`, { value });
      if (r.status >= 300) throw new Error(`could not set ${key}: ${JSON.stringify(r.json)}`);
    }
    const { dashboard, dashcards } = await makeDashboard(server.url, admin, ids.db, ids.orders, field);
    const uuid = ((await api(server.url, admin, 'POST', `/api/dashboard/${dashboard}/public_link`)).json as { uuid: string }).uuid;

    const jwt = new JwtService();
    const now = Math.floor(Date.now() / 1000);
    // Distinct tokens: each its own expiry; four locked values, so the warm cache holds four results per card.
    const tokens = Array.from({ length: VIEWERS }, (_, i) =>
      jwt.sign(
        { resource: { dashboard }, params: { category: CATEGORIES[i % CATEGORIES.length] }, exp: now + 3600 + i },
        { secret: SECRET, algorithm: 'HS256' },
      ),
    );
    const verifyUs = verifyCost(tokens);
    log(`token verification: ${verifyUs.toFixed(1)} µs`);

    const embedRoutes = (token: string) => [
      `/api/embed/dashboard/${token}`,
      ...dashcards.map((dc) => `/api/embed/dashboard/${token}/dashcard/${dc.id}/card/${dc.card_id}`),
    ];
    const publicRoutes = (i: number) => {
      const parameters = encodeURIComponent(JSON.stringify([{ id: 'cat', value: [CATEGORIES[i % CATEGORIES.length]] }]));
      return [
        `/api/public/dashboard/${uuid}`,
        ...dashcards.map((dc) => `/api/public/dashboard/${uuid}/dashcard/${dc.id}/card/${dc.card_id}?parameters=${parameters}`),
      ];
    };
    // Warm the result cache: each locked value once, both ways, at most 4 queries at once (a shared object may run 10).
    await burst(server.url, tokens.slice(0, CATEGORIES.length).flatMap(embedRoutes), 4);
    await burst(
      server.url,
      CATEGORIES.flatMap((_, i) => publicRoutes(i)),
      4,
    );
    const embed = await burst(server.url, tokens.flatMap(embedRoutes));
    log(`embed burst: ${embed.requests} requests in ${embed.wallMs.toFixed(0)} ms`);
    const shared = await burst(
      server.url,
      tokens.flatMap((_, i) => publicRoutes(i)),
    );
    log(`public burst: ${shared.requests} requests in ${shared.wallMs.toFixed(0)} ms`);
    return report(verifyUs, embed, shared);
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Eight questions on ORDERS, each filtered by the dashboard's `category` through the product; embedding on with it locked. */
async function makeDashboard(url: string, admin: string, db: number, orders: number, field: (t: string, f: string) => number) {
  const created = ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'month' }];
  const viaUser = (f: string) => ['field', field('PEOPLE', f), { 'source-field': field('ORDERS', 'USER_ID') }];
  const breakouts = [
    created,
    viaUser('STATE'),
    viaUser('SOURCE'),
    ['field', field('ORDERS', 'CREATED_AT'), { 'temporal-unit': 'quarter' }],
  ];
  const aggregations = [['count'], ['sum', ['field', field('ORDERS', 'TOTAL'), null]]];
  const cards: number[] = [];
  for (let i = 0; i < CARDS; i++) {
    const dataset_query = {
      database: db,
      type: 'query',
      query: { 'source-table': orders, aggregation: [aggregations[i % 2]], breakout: [breakouts[Math.floor(i / 2)]] },
    };
    const r = await api(url, admin, 'POST', '/api/card', {
      name: `Embed card ${i + 1}`,
      display: 'line',
      visualization_settings: {},
      cache_ttl: 1,
      dataset_query,
    });
    if (r.status !== 200) throw new Error(`card ${i}: ${JSON.stringify(r.json).slice(0, 300)}`);
    cards.push((r.json as { id: number }).id);
  }
  const parameters = [{ id: 'cat', name: 'Category', slug: 'category', type: 'string/=' }];
  const dash = (await api(url, admin, 'POST', '/api/dashboard', { name: 'Embed bench', parameters })).json as { id: number };
  const target = ['dimension', ['field', field('PRODUCTS', 'CATEGORY'), { 'source-field': field('ORDERS', 'PRODUCT_ID') }]];
  const dashcards = cards.map((card_id, i) => ({
    id: -(i + 1),
    card_id,
    row: Math.floor(i / 2) * 4,
    col: (i % 2) * 12,
    size_x: 12,
    size_y: 4,
    parameter_mappings: [{ parameter_id: 'cat', card_id, target }],
    visualization_settings: {},
  }));
  const put = await api(url, admin, 'PUT', `/api/dashboard/${dash.id}`, {
    dashcards,
    enable_embedding: true,
    embedding_params: { category: 'locked' },
  });
  if (put.status !== 200) throw new Error(`dashboard: ${JSON.stringify(put.json).slice(0, 300)}`);
  return { dashboard: dash.id, dashcards: (put.json as { dashcards: Array<{ id: number; card_id: number }> }).dashcards };
}

/** Microseconds per verification (HS256, claims checked), the median of five passes over all the tokens. */
function verifyCost(tokens: string[]): number {
  const passes: number[] = [];
  for (let p = 0; p < 5; p++) {
    const started = process.hrtime.bigint();
    for (const t of tokens) verifyEmbedToken(t, SECRET, 'dashboard');
    passes.push(Number(process.hrtime.bigint() - started) / 1e3 / tokens.length);
  }
  return median(passes);
}

/** Every route once, `connections` at a time over keep-alive connections; each answer must be a success. */
async function burst(url: string, routes: string[], connections = CONNECTIONS): Promise<Burst> {
  const through = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let next = 0;
  const started = process.hrtime.bigint();
  const worker = async () => {
    while (next < routes.length) {
      const route = routes[next++];
      const t0 = process.hrtime.bigint();
      const { status, body } = await get(through, url + route);
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (status !== 200 && status !== 202) throw new Error(`${route.slice(0, 60)}...: ${status} ${body.slice(0, 200)}`);
      if (status === 202 && !body.includes('"status":"completed"')) throw new Error(`a dashcard query failed: ${body.slice(0, 300)}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    through.destroy();
  }
  return { requests: routes.length, wallMs: Number(process.hrtime.bigint() - started) / 1e6, latencies };
}

function get(through: http.Agent, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: through }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function report(verifyUs: number, embed: Burst, shared: Burst): string {
  const row = (name: string, b: Burst) =>
    `| ${name} | ${b.requests.toLocaleString('en-US')} | ${percentile(b.latencies, 50).toFixed(1)} |` +
    ` ${percentile(b.latencies, 95).toFixed(1)} | ${((b.requests / b.wallMs) * 1000).toFixed(0)} |`;
  return [
    '## Embed burst',
    '',
    `An 8-card dashboard on the Sample Database with ${ORDERS.toLocaleString('en-US')} orders in DuckDB, each card filtered by a`,
    `\`category\` parameter through the product (an implicit join). ${VIEWERS.toLocaleString('en-US')} viewers, each with its own valid`,
    'signed token (distinct expiries; the locked `category` one of four values), load the embedded dashboard: its GET and',
    `its 8 dashcard queries. The bench process (the load generator) sends them to the server, its own process, over`,
    `${CONNECTIONS} keep-alive connections on loopback, with the result cache warm (each of the four values run once before).`,
    "Then the same through a public link of the dashboard, with the same four values as the viewer's `parameters`.",
    '',
    '| surface | requests | p50 (ms) | p95 (ms) | requests/s |',
    '|---|---:|---:|---:|---:|',
    row('signed embed (`/api/embed/dashboard/:token/...`)', embed),
    row('public link (`/api/public/dashboard/:uuid/...`)', shared),
    '',
    `Verifying one token (HS256 signature, algorithm pinned, expiry and claims checked), in process: ${verifyUs.toFixed(1)} µs.`,
    'Every embed request verifies its token once, in the guard, before anything else is read.',
    '',
    `Machine: ${os.cpus().length} cores, 1-minute load average ${os.loadavg()[0].toFixed(1)} at the end of the run (other work included).`,
    '',
  ].join('\n');
}
