/**
 * The query suite of `npm run bench`: the query API's overhead over the warehouse itself.
 *
 * The Sample Database at BENCH_ORDERS orders (default 10 million) is written once into DuckDB (bench/data/) and
 * Postgres (database `bench_sample`) and reused by later runs. The built server runs as its own process; each
 * query goes through POST /api/dataset over HTTP (keep-alive), and the very SQL it compiles to is run directly
 * with the same driver class in this process, alternating with the API runs. Native SQL cases send SQL as written
 * and compare with that SQL run plainly (no read-only transaction), so they show what the wrapping costs. Medians
 * of the pairs' differences; the server's memory is read from /proc. Figures go to bench/results.md.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createDriver, Engine, SqlParam, validateDetails, WarehouseDriver } from '../src/query-engine/execute/drivers';
import { writeSampleDatabase } from '../src/sample-data';
import { ADMIN, agent, api, cpuMs, DATA, ensurePgDatabase, log, login, median, startServer, stopServer } from './http';
import { IdleWake, measureIdleWake } from './idle-wake';
import { startRelay } from './tcp-relay';

export const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000_000);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const PG_DB = 'bench_sample';
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
/** Issue 22's targets: the overhead on a one-row result, and on a 100,000-row result relative to the direct run. */
const TARGET_ONE_ROW_MS = 1;
const TARGET_LARGE_PCT = 5;

interface Case {
  name: string;
  body: (ids: Ids) => Record<string, unknown>;
  rows: number;
  /**
   * Native SQL: the direct run is the SQL as written, plain (no read-only transaction, no statement timeout), so
   * the overhead includes what the server's read-only wrapping costs. Structured queries: the direct run gets the
   * options the server uses, so their overhead is the server's own work.
   */
  native?: true;
  /** Engines the case runs on (all when absent). */
  engines?: Engine[];
}
export interface Ids {
  db: number;
  orders: number;
  products: number;
  category: number;
  total: number;
}
interface Row {
  engine: Engine;
  case: string;
  rows: number;
  directMs: number;
  apiMs: number;
  /** Median of the per-run differences (API minus the direct run just before it), and its 95% bootstrap interval. */
  overheadMs: number;
  overheadCi: [number, number];
  /** JSON.stringify of the direct result's rows, in the server's batch size: the encoding any JSON API pays. */
  encodeMs: number;
  /** Postgres: the median of (the same run through a bare relay process) minus (the direct run beside it). */
  hopMs?: number;
  /**
   * The server process's CPU time per API run (user and system, summed over the measured runs): its own work on
   * Postgres; on DuckDB it also holds the engine's threads, which run the query inside the server.
   */
  serverCpuMs: number;
}

const CASES: Case[] = [
  {
    name: 'one-row aggregate (count of Gizmo products)',
    rows: 1,
    body: (i) => ({
      database: i.db,
      type: 'query',
      query: { 'source-table': i.products, aggregation: [['count']], filter: ['=', ['field', i.category, null], 'Gizmo'] },
    }),
  },
  {
    name: 'one-row aggregate over all orders (sum of TOTAL)',
    rows: 1,
    body: (i) => ({ database: i.db, type: 'query', query: { 'source-table': i.orders, aggregation: [['sum', ['field', i.total, null]]] } }),
  },
  {
    name: '100,000-row result (ORDERS, all columns)',
    rows: 100_000,
    body: (i) => ({
      database: i.db,
      type: 'query',
      query: { 'source-table': i.orders, limit: 100_000 },
      constraints: { 'max-results': 100_000 },
    }),
  },
  // The same questions written as SQL (quoted names: the Sample Database's tables and columns are upper case).
  {
    name: 'native SQL: one-row aggregate (count of Gizmo products)',
    rows: 1,
    native: true,
    body: (i) => ({
      database: i.db,
      type: 'native',
      native: { query: `SELECT COUNT(*) AS "count" FROM "PRODUCTS" WHERE "CATEGORY" = 'Gizmo'` },
    }),
  },
  // Issue 33's one-row query: a count that scans every order (8-10 ms on Postgres at 100,000 orders).
  {
    name: 'native SQL: one-row count over all orders',
    rows: 1,
    native: true,
    body: (i) => ({ database: i.db, type: 'native', native: { query: 'SELECT COUNT(*) AS "count" FROM "ORDERS"' } }),
  },
  // A one-row answer that keeps Postgres waiting as long as the count over all orders takes, without that scan's work
  // (a sleep touches no data): it tells whether the wait or the scan makes the server's work cost more after it.
  {
    name: 'native SQL: one row after a 60 ms wait (pg_sleep)',
    rows: 1,
    native: true,
    engines: ['postgres'],
    body: (i) => ({ database: i.db, type: 'native', native: { query: 'SELECT 1 AS "one" FROM pg_sleep(0.06)' } }),
  },
  {
    name: 'native SQL: 100,000-row result (ORDERS, all columns)',
    rows: 100_000,
    native: true,
    body: (i) => ({
      database: i.db,
      type: 'native',
      native: { query: 'SELECT * FROM "ORDERS" LIMIT 100000' },
      constraints: { 'max-results': 100_000 },
    }),
  },
];

/** Runs the suite and answers its section of bench/results.md. */
export async function queryOverheadBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const duckFile = path.join(DATA, `sample-${ORDERS}.duckdb`);
  await ensureDuckdb(duckFile);
  const pgUrl = await ensurePostgres();

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-'));
  const server = await startServer(dataDir);
  const results: Row[] = [];
  const loadStart = os.loadavg()[0];
  try {
    const admin = await login(server.url, ADMIN);
    // Queries run as an ordinary user: their data permissions are checked on every query, an admin's are not.
    const session = await analyst(server.url, admin);
    const floor = await healthFloor(server.url);
    const wake = await measureIdleWake();
    for (const [engine, details] of [
      ['duckdb', { db: duckFile }],
      ['postgres', { host: pgUrl.hostname, port: Number(pgUrl.port || 5432), dbname: PG_DB, user: pgUrl.username || 'postgres' }],
    ] as Array<[Engine, Record<string, unknown>]>) {
      const ids = await connect(server.url, admin, engine, details);
      const driver = createDriver(engine, validateDetails(engine, details, { dataDir: DATA }) as never, {});
      // DuckDB runs inside the server: there is no process in the middle to compare with.
      const relay = engine === 'postgres' ? await startRelay(details.host as string, details.port as number) : null;
      const hop = relay
        ? createDriver(engine, validateDetails(engine, { ...details, host: '127.0.0.1', port: relay.port }, { dataDir: DATA }) as never, {})
        : null;
      try {
        for (const c of CASES.filter(
          (x) => (!x.engines || x.engines.includes(engine)) && (!process.env.BENCH_ONLY || x.name.includes(process.env.BENCH_ONLY)),
        ))
          results.push(await measure(server, session, { driver, hop }, engine, c, ids));
      } finally {
        await driver.close();
        await hop?.close();
        relay?.stop();
      }
    }
    return report(results, serverMemory(server.proc.pid!), floor, wake, [loadStart, os.loadavg()[0]]);
  } finally {
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function ensureDuckdb(file: string): Promise<void> {
  if (fs.existsSync(file)) return;
  log(`Writing ${ORDERS.toLocaleString('en-US')} orders into ${file} ...`);
  await writeSampleDatabase({ engine: 'duckdb', file }, { orders: ORDERS });
}

export async function ensurePostgres(): Promise<URL> {
  const url = await ensurePgDatabase(PG_ADMIN, PG_DB);
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  const have = await c.query(`SELECT count(*)::bigint AS n FROM information_schema.tables WHERE table_name = 'ORDERS'`);
  const rows = Number(have.rows[0].n) === 1 ? Number((await c.query('SELECT count(*) AS n FROM "ORDERS"')).rows[0].n) : 0;
  await c.end();
  if (rows !== ORDERS) {
    log(`Writing ${ORDERS.toLocaleString('en-US')} orders into Postgres ${PG_DB} ...`);
    const details = validateDetails(
      'postgres',
      { host: url.hostname, port: Number(url.port || 5432), dbname: PG_DB, user: url.username || 'postgres' },
      { dataDir: DATA },
    );
    await writeSampleDatabase({ engine: 'postgres', details }, { orders: ORDERS, replace: true });
  }
  return url;
}

/** A user in All Users only, which may query every new database (Metabase's default grant). */
async function analyst(url: string, admin: string): Promise<string> {
  const user = { email: 'analyst@example.com', password: ADMIN.password };
  const created = await api(url, admin, 'POST', '/api/user', { ...user, first_name: 'Ana', last_name: 'Lyst' });
  if (created.status !== 200) throw new Error(`could not create the analyst: ${JSON.stringify(created.json)}`);
  return login(url, user);
}

export async function connect(url: string, session: string, engine: Engine, details: Record<string, unknown>): Promise<Ids> {
  const created = await api(url, session, 'POST', '/api/database', { engine, name: `bench ${engine}`, details });
  if (created.status !== 200) throw new Error(`could not connect ${engine}: ${JSON.stringify(created.json)}`);
  const db = (created.json as { id: number }).id;
  for (;;) {
    const d = (await api(url, session, 'GET', `/api/database/${db}`)).json as { initial_sync_status: string };
    if (d.initial_sync_status !== 'incomplete') break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const meta = (await api(url, session, 'GET', `/api/database/${db}/metadata`)).json as {
    tables: Array<{ id: number; name: string; fields: Array<{ id: number; name: string }> }>;
  };
  const table = (n: string) => meta.tables.find((t) => t.name === n)!;
  const field = (t: string, f: string) => table(t).fields.find((x) => x.name === f)!.id;
  return {
    db,
    orders: table('ORDERS').id,
    products: table('PRODUCTS').id,
    category: field('PRODUCTS', 'CATEGORY'),
    total: field('ORDERS', 'TOTAL'),
  };
}

async function measure(
  { url, proc }: { url: string; proc: { pid?: number } },
  session: string,
  { driver, hop }: { driver: WarehouseDriver; hop: WarehouseDriver | null },
  engine: Engine,
  c: Case,
  ids: Ids,
): Promise<Row> {
  const body = c.body(ids);
  const native = c.native
    ? { query: (body.native as { query: string }).query, params: [] as SqlParam[] }
    : ((await api(url, session, 'POST', '/api/dataset/native', { database: ids.db, query: body })).json as {
        query: string;
        params: SqlParam[];
      });
  // The options the server uses for the same query: its row cap (2,000 ad hoc unless the query says more) and
  // timeout; native SQL runs plain (see Case.native).
  const maxRows = Math.max(c.rows, 2000);
  const directOptions = c.native ? { maxRows } : { readOnly: true, maxRows, timeoutMs: 1_200_000 };
  const direct: number[] = [];
  const viaApi: number[] = [];
  const viaHop: number[] = [];
  let serverCpu = 0;
  // Interleaved, after a warm-up, so both see the same caches and machine load. The warm-up lasts at least 10
  // runs and 3 s (the JIT settles on the server's hot paths). Slow queries get fewer runs: about 20 s per case,
  // at least 10 runs, at most BENCH_RUNS.
  const warmUntil = Date.now() + 3000;
  let warmups = 0;
  let runs = RUNS;
  for (let i = 0; i < runs;) {
    const t0 = process.hrtime.bigint();
    const r = await driver.query(native.query, native.params, directOptions);
    const directMs = Number(process.hrtime.bigint() - t0) / 1e6;
    const t1 = process.hrtime.bigint();
    if (hop) await hop.query(native.query, native.params, directOptions);
    const hopMs = Number(process.hrtime.bigint() - t1) / 1e6;
    const cpuBefore = cpuMs(proc.pid!);
    const res = await api(url, session, 'POST', '/api/dataset', body);
    const cpuUsed = cpuMs(proc.pid!) - cpuBefore;
    const answer = res.json as { status: string; row_count: number; error?: string };
    if (answer.status !== 'completed' || answer.row_count !== r.rows.length)
      throw new Error(`${engine} ${c.name}: ${JSON.stringify(answer).slice(0, 300)}`);
    if (warmups < 10 || Date.now() < warmUntil) {
      warmups++;
      runs = Math.max(10, Math.min(RUNS, Math.floor(20_000 / (directMs + hopMs + res.ms))));
      continue;
    }
    direct.push(directMs);
    viaApi.push(res.ms);
    viaHop.push(hopMs);
    serverCpu += cpuUsed;
    i++;
  }
  const sample = (await driver.query(native.query, native.params, { readOnly: true, maxRows })).rows;
  const encode: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = process.hrtime.bigint();
    for (let j = 0; j < sample.length; j += 2000) JSON.stringify(sample.slice(j, j + 2000));
    encode.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const diffs = viaApi.map((ms, i) => ms - direct[i]);
  const row = {
    engine,
    case: c.name,
    rows: c.rows,
    directMs: median(direct),
    apiMs: median(viaApi),
    overheadMs: median(diffs),
    overheadCi: bootstrapMedianCi(diffs),
    encodeMs: median(encode),
    ...(hop ? { hopMs: median(viaHop.map((ms, i) => ms - direct[i])) } : {}),
    serverCpuMs: serverCpu / viaApi.length,
  };
  log(`${engine} | ${c.name}: direct ${row.directMs.toFixed(2)} ms, API ${row.apiMs.toFixed(2)} ms`);
  return row;
}

/** The server's floor: GET /api/health (routing, one SELECT 1 on the app DB, the HTTP round trip), no query work. */
async function healthFloor(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = -20; i < 200; i++) {
    const r = await api(url, null, 'GET', '/api/health');
    if (i >= 0) times.push(r.ms);
  }
  return median(times);
}

function serverMemory(pid: number): { rssMb: number; peakMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

function report(rows: Row[], memory: { rssMb: number; peakMb: number }, floorMs: number, wake: IdleWake, load: [number, number]): string {
  const lines = [
    '## Query API overhead',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    `Sample Database with ${ORDERS.toLocaleString('en-US')} orders. Medians of interleaved runs after a warm-up.`,
    'The server runs as `npm start` runs it: its flags and default settings (log level and format, the Sample',
    'Database loaded, scheduled syncs), a SQLite app DB; its stdout is a pipe, so it logs JSON lines.',
    '"direct" runs the compiled SQL with the driver in the benchmark process; "API" is POST /api/dataset over HTTP as a',
    "user without admin rights (Node's http client, keep-alive), until the whole JSON body has arrived." +
      ' Each API run follows a direct run of the',
    'same query (on Postgres, and then its run through the relay below); the overhead is the median of the',
    'differences between each API run and its direct run, with its 95% bootstrap interval. Targets (issue',
    `22): at most ${TARGET_ONE_ROW_MS} ms overhead on a one-row result, at most ${TARGET_LARGE_PCT}% on a 100,000-row result,` +
      ' for structured and native queries.',
    'Structured queries are compiled by the server (POST /api/dataset/native gives their SQL) and run directly with the',
    'options the server uses (read-only, statement timeout, row cap). The "native SQL" rows send SQL as written; their',
    'direct run is that SQL run plainly (no transaction, no timeout, the same row cap), so their overhead also holds',
    'what the server wraps every query in: on Postgres a read-only transaction with a statement timeout (BEGIN READ',
    'ONLY, SET LOCAL statement_timeout, the statement, ROLLBACK), on DuckDB its read-only statement check.',
    '',
    '| engine | query | rows | direct (ms) | API (ms) | overhead (95% interval) | a bare relay process (ms) |' +
      ' server CPU per API run (ms) | JSON encoding of the rows (ms) | target |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => {
      const pct = (ms: number) => (ms / r.directMs) * 100;
      const [lo, hi] = r.overheadCi;
      const target =
        r.rows !== 1
          ? pct(r.overheadMs) <= TARGET_LARGE_PCT
            ? `met (<= ${TARGET_LARGE_PCT}%)`
            : `missed (> ${TARGET_LARGE_PCT}%)`
          : hi - lo > TARGET_ONE_ROW_MS
            ? 'not measurable here (the interval is wider than the target)'
            : r.overheadMs <= TARGET_ONE_ROW_MS
              ? `met (<= ${TARGET_ONE_ROW_MS} ms)`
              : `missed (> ${TARGET_ONE_ROW_MS} ms)`;
      const interval = r.rows === 1 ? `${lo.toFixed(2)} to ${hi.toFixed(2)} ms` : `${pct(lo).toFixed(1)} to ${pct(hi).toFixed(1)}%`;
      const cells = [
        r.engine,
        r.case,
        r.rows.toLocaleString('en-US'),
        r.directMs.toFixed(2),
        r.apiMs.toFixed(2),
        `${r.overheadMs.toFixed(2)} ms, ${pct(r.overheadMs).toFixed(1)}% (${interval})`,
        r.hopMs === undefined ? '' : r.hopMs.toFixed(2),
        r.serverCpuMs.toFixed(2),
        r.encodeMs.toFixed(2),
        target,
      ];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    `Server memory after the runs: ${memory.rssMb.toFixed(0)} MB resident, ${memory.peakMb.toFixed(0)} MB at peak. Load average (1 min)`,
    `at the start and the end of the suite: ${load[0].toFixed(1)} and ${load[1].toFixed(1)} on ${os.cpus().length} cores.`,
    '',
    `For scale: GET /api/health (routing, one SELECT 1 on the app DB, the HTTP round trip, no query work) takes`,
    `${floorMs.toFixed(2)} ms here. The interval covers the spread within one run; between whole runs on a shared`,
    '2-core VM the one-row overheads have moved by up to 0.7 ms and the large results by about 5 points, so compare',
    'several runs before concluding.',
    '',
    'A one-row answer pays the HTTP round trip, routing, the session and permission checks, planning and compiling',
    'the query (its table and field metadata come from an in-memory cache), and writing the answer: about a',
    `millisecond of work on the server. After a scan of all ${ORDERS.toLocaleString('en-US')} orders that same work takes longer, and the`,
    'pg_sleep row shows that the wait alone does it: Postgres sleeps, touching no data, and the overhead and the',
    "server's CPU per run grow as much. Waking a process that has been idle costs more on this machine whatever the",
    `process: two bare processes bouncing a message over loopback take ${wake.hotUs.toFixed(0)} µs a round trip back to back and`,
    `${wake.afterIdleUs.toFixed(0)} µs after both have been idle ${wake.idleMs} ms (no code of ours in either).`,
    "An API run wakes the server twice (the request, Postgres's answer), and its work after each wake touches far more",
    "code and data than an echo's.",
    'The "bare relay process" column (Postgres) is the median extra time of the same query run through a process that',
    'only copies bytes between the benchmark and Postgres: what any process in the middle pays before doing any work',
    'of its own. "server CPU per API run" is the CPU time the server process used during the API runs, per run',
    "(from /proc, in 10 ms ticks summed over the runs): on Postgres its own work, on DuckDB also the query's",
    "execution, which runs on DuckDB's threads inside the server. Where the overhead exceeds it, the rest is the",
    "client's side of HTTP and time spent waiting (for the CPU, or to be woken), not the server's work.",
    '',
    'Rows stream from the driver to the socket (see the README), so the API overlaps reading the database with',
    'encoding and sending; the JSON encoding of the rows, measured in its own column, is the part it cannot avoid.',
    '',
  ];
  return lines.join('\n');
}

/** The 2.5th and 97.5th percentiles of the median over 2,000 resamples (a fixed seed: reruns differ only by their data). */
function bootstrapMedianCi(xs: number[]): [number, number] {
  // mulberry32: small, and exact in 32-bit integer arithmetic.
  let seed = 42;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const medians: number[] = [];
  for (let i = 0; i < 2000; i++) medians.push(median(xs.map(() => xs[Math.floor(random() * xs.length)])));
  medians.sort((a, b) => a - b);
  return [medians[Math.floor(0.025 * medians.length)], medians[Math.ceil(0.975 * medians.length) - 1]];
}
