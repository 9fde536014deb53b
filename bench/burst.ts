/**
 * The burst suite of `npm run bench` (issue 33): one user's clients, each sending native `SELECT COUNT(*)` queries one
 * after another through POST /api/dataset, all at once, against the server as `npm start` runs it (MAX_QUERIES_PER_USER
 * at its default), on a Postgres warehouse of BENCH_BURST_ORDERS orders (database `bench_load`, written once). Beside
 * it, same run: one client sending as many queries one after another, and a second user's query on an idle server.
 * While the burst runs, the second user sends its own query again and again; its latency is compared with the idle one.
 * Two bursts: the (every query the same SQL, which identical queries in flight share) and one where every
 * query differs (nothing to share: the fair queue alone).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { validateDetails } from '../src/query-engine/execute/drivers';
import { writeSampleDatabase } from '../src/sample-data';
import { ADMIN, DATA, ensurePgDatabase, log, login, percentile, startServer, stopServer } from './http';
import { Answer, completed, freePort, runCounts, send } from './load-http';
import { connect } from './query-overhead';

const ORDERS = Number(process.env.BENCH_BURST_ORDERS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_BURST_CLIENTS ?? 50);
const PER_CLIENT = Number(process.env.BENCH_BURST_QUERIES ?? 20);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_load';
const SAME_SQL = 'SELECT COUNT(*) AS n FROM "ORDERS"';
/** The second user's query: another table, so it never shares the burst's runs. */
const OTHER_SQL = 'SELECT COUNT(*) AS n FROM "PRODUCTS"';

interface Burst {
  name: string;
  queries: number;
  failed: number;
  wallMs: number;
  /** The second user's latencies while the burst ran. */
  other: number[];
  /** GET /api/health while the burst ran (no query, no slot): how long any request waited for the server then. */
  health: number[];
  runs: number;
  shared: number;
}

export async function burstBench(): Promise<string> {
  const pgUrl = await ensureLoadDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-burst-'));
  const metricsPort = await freePort();
  const server = await startServer(dataDir, { METRICS_PORT: String(metricsPort) });
  const metricsUrl = `http://127.0.0.1:${metricsPort}`;
  const load = [os.loadavg()[0]];
  try {
    const admin = await login(server.url, ADMIN);
    const [burstUser, otherUser] = [await analyst(server.url, admin, 'burst'), await analyst(server.url, admin, 'other')];
    const details = { host: pgUrl.hostname, port: Number(pgUrl.port || 5432), dbname: PG_DB, user: pgUrl.username || 'postgres' };
    const { db } = await connect(server.url, admin, 'postgres', details);
    const ask = (through: http.Agent, session: string, sql: string) =>
      send(through, server.url, 'POST', '/api/dataset', { session, body: { database: db, type: 'native', native: { query: sql } } });

    // Warm-up, then the baselines of the same run: one client alone, and the second user's query on an idle server.
    const one = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 50; i++) await ask(one, burstUser, SAME_SQL);
    const sequential = await timed(async () => {
      let failed = 0;
      for (let i = 0; i < CLIENTS * PER_CLIENT; i++) if (!completed(await ask(one, burstUser, SAME_SQL))) failed++;
      return failed;
    });
    log(`one client: ${CLIENTS * PER_CLIENT} queries in ${sequential.ms.toFixed(0)} ms, ${sequential.value} failed`);
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push((await ask(one, otherUser, OTHER_SQL)).ms);
    one.destroy();

    const bursts: Burst[] = [];
    for (const [name, sql] of [
      ['the same SQL (the issue’s workload)', () => SAME_SQL],
      ['a different SQL each', (n: number) => `SELECT COUNT(*) AS n FROM "ORDERS" WHERE "ID" > ${n}`],
    ] as Array<[string, (n: number) => string]>) {
      bursts.push(await burst(name, sql, ask, burstUser, otherUser, metricsUrl, db, server.url));
      log(`burst (${name}): ${bursts.at(-1)!.wallMs.toFixed(0)} ms, ${bursts.at(-1)!.failed} failed`);
    }
    load.push(os.loadavg()[0]);
    return report(sequential, idle, bursts, load);
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CLIENTS clients of one user at once, each its own connection sending PER_CLIENT queries in turn; the other user meanwhile. */
async function burst(
  name: string,
  sql: (n: number) => string,
  ask: (through: http.Agent, session: string, sql: string) => Promise<Answer>,
  burstUser: string,
  otherUser: string,
  metricsUrl: string,
  db: number,
  url: string,
): Promise<Burst> {
  const before = await runCounts(metricsUrl, db);
  let failed = 0;
  let running = true;
  const other: number[] = [];
  const health: number[] = [];
  const healthLoop = (async () => {
    const through = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (running) {
      const a = await send(through, url, 'GET', '/api/health');
      if (running) health.push(a.ms);
    }
    through.destroy();
  })();
  const otherLoop = (async () => {
    const through = new http.Agent({ keepAlive: true, maxSockets: 1 });
    while (running) {
      const a = await ask(through, otherUser, OTHER_SQL);
      if (running) other.push(a.ms);
    }
    through.destroy();
  })();
  const { ms } = await timed(() =>
    Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        const through = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < PER_CLIENT; i++) {
          const a = await ask(through, burstUser, sql(c * PER_CLIENT + i));
          if (!completed(a)) {
            failed++;
            if (failed <= 3) log(`failed: ${a.status} ${a.body.slice(0, 200)}`);
          }
        }
        through.destroy();
      }),
    ),
  );
  running = false;
  await Promise.all([otherLoop, healthLoop]);
  const after = await runCounts(metricsUrl, db);
  return {
    name,
    queries: CLIENTS * PER_CLIENT,
    failed,
    wallMs: ms,
    other,
    health,
    runs: after.runs - before.runs,
    shared: after.shared - before.shared,
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = process.hrtime.bigint();
  const value = await work();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

/** A user in All Users only (Metabase's default grant lets it run native queries on a new database). */
async function analyst(url: string, admin: string, name: string): Promise<string> {
  const user = { email: `${name}@example.com`, password: ADMIN.password };
  const through = new http.Agent({ keepAlive: false });
  const created = await send(through, url, 'POST', '/api/user', {
    session: admin,
    body: { ...user, first_name: name, last_name: 'Bench' },
  });
  if (created.status !== 200) throw new Error(`could not create ${name}: ${created.body}`);
  return login(url, user);
}

/** The Sample Database at ORDERS orders in Postgres database `bench_load`, written when missing or of another size. */
async function ensureLoadDatabase(): Promise<URL> {
  const url = await ensurePgDatabase(PG_ADMIN, PG_DB);
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  const have = await c.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'ORDERS'`);
  const rows = have.rows[0].n === 1 ? Number((await c.query('SELECT count(*) AS n FROM "ORDERS"')).rows[0].n) : 0;
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

function report(sequential: { value: number; ms: number }, idle: number[], bursts: Burst[], load: number[]): string {
  const seqRate = ((CLIENTS * PER_CLIENT) / sequential.ms) * 1000;
  const idleP95 = percentile(idle, 95);
  const row = (b: Burst) => {
    const rate = (b.queries / b.wallMs) * 1000;
    const otherP95 = b.other.length ? percentile(b.other, 95) : NaN;
    const met = b.failed === 0 && rate >= 3 * seqRate && otherP95 <= 2 * idleP95;
    return (
      `| ${b.name} | ${b.queries} | ${b.failed} | ${rate.toFixed(0)} (${(rate / seqRate).toFixed(1)}x) | ${b.runs} | ${b.shared} |` +
      ` ${percentile(b.other, 50).toFixed(1)} / ${otherP95.toFixed(1)} (${(otherP95 / idleP95).toFixed(1)}x, ${b.other.length} queries) |` +
      ` ${percentile(b.health, 50).toFixed(1)} / ${percentile(b.health, 95).toFixed(1)} | ${met ? 'met' : 'missed'} |`
    );
  };
  return [
    '## One user’s burst (issue 33)',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    `${CLIENTS} clients of one user (a user without admin rights), each on its own keep-alive connection, send ${PER_CLIENT}`,
    'native `SELECT COUNT(*)` queries one after another through POST /api/dataset to a Postgres warehouse of',
    `${ORDERS.toLocaleString('en-US')} orders; the server runs as \`npm start\` does (MAX_QUERY_REQUESTS_PER_USER 10 and`,
    'MAX_QUERIES_PER_USER 10: requests and queries past them wait their turn). Meanwhile a second user sends its own',
    'query (a count of PRODUCTS) again and again. "warehouse runs"',
    'counts the runs that took a query slot (analytics_query_queue_wait_seconds_count), "shared" the queries answered by',
    'an identical run in flight (analytics_query_shared_total). Baselines of the same run: one client sending the same',
    `${CLIENTS * PER_CLIENT} queries one after another: ${seqRate.toFixed(0)} queries/s (${sequential.value} failed); the second`,
    `user's query on the idle server: p50 ${percentile(idle, 50).toFixed(1)} ms, p95 ${idleP95.toFixed(1)} ms.`,
    "Targets: 0 failed, at least 3x the one client's throughput, the second user's p95 during the burst within 2x its",
    'idle p95.',
    '',
    "| burst | queries | failed | queries/s (x one client) | warehouse runs | shared | second user's p50 / p95 (ms) |" +
      ' GET /api/health p50 / p95 (ms) | targets |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...bursts.map(row),
    '',
    `Load average (1 min) at the start and the end: ${load.map((l) => l.toFixed(1)).join(' and ')} on ${os.cpus().length} cores (the load`,
    'generator, the server and Postgres share them).',
    '',
    "The second user's query never waits for a query slot here (the burst's user holds at most 10 of the pool's 15):",
    "its latency during a burst is the time it waits for the CPU and the event loop, shared with the burst's requests,",
    'the load generator and Postgres. GET /api/health, sent meanwhile on a connection of its own, runs no query and',
    'takes no slot: it shows that wait alone.',
    '',
    'What remains (a CPU profile of the server over this suite, BENCH_PROFILE=dir, 2026-11-29): during the two bursts',
    '(their last 13 s) the server’s thread was idle 2.2 s; it ran JavaScript 6.3 s (the HTTP stack, the query engine,',
    'the app database: about 3 ms a request), collected garbage 0.6 s, and spent 3.0 s inside writev on loopback',
    'sockets, handing queries to Postgres and answers to clients: a write to a local socket wakes the process that',
    'reads it, and on two cores shared with the load generator and Postgres the woken process takes the core while',
    'the server waits inside the call. The burst’s user has 10 requests worked on at once (MAX_QUERY_REQUESTS_PER_USER;',
    'the other 40 wait before any work), so the second user’s query waits behind 10 at each hop (request, query,',
    'answer): with all 50 in process (before that limit, same day) its p95 was 122 ms for the same SQL (21.5x) and',
    '199 ms for different SQL (35x). With different SQL the warehouse is what is busy: 10 of the burst’s counts run at',
    'once on Postgres, on the same two cores, beside the second user’s query. Within 2x would take a core left idle',
    'during the burst: the burst’s throughput (the 3x target) traded for it.',
    '',
  ].join('\n');
}
