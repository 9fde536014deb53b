/**
 * The floor suite of `npm run bench`: what one request costs when it does almost nothing. Four servers answer the
 * same closed-loop load (BENCH_FLOOR_CLIENTS keep-alive clients for BENCH_FLOOR_SECONDS each, after a warm-up):
 * a bare Node HTTP server and a bare Nest-on-Express app (the baselines, in child processes like the server), then
 * the server's `GET /api/health` and an authenticated `GET /api/user/current`, on the SQLite and on the Postgres
 * app DB. All four run at once and take turns for BENCH_FLOOR_ROUNDS rounds. Targets are ratios to the bare Nest
 * app in the same round: health at 70% or more, user/current at 50%. BENCH_PROFILE=dir also writes CPU profiles
 * of the servers.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, cpuMs, ensurePgDatabase, log, login, median, percentile, ROOT, startServer, stopServer } from './http';

const SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_FLOOR_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_FLOOR_ROUNDS ?? 3);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time per answered request (microseconds): unlike requests/s, not moved by the load generator. */
  cpuPerRequest: number;
}

/** Closed loop: each client sends its next request when the last one is answered. */
async function load(url: string, headers: Record<string, string> = {}, seconds = SECONDS, pid?: number): Promise<Load> {
  const cpuBefore = pid ? cpuMs(pid) : 0;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let errors = 0;
  const started = Date.now();
  const end = started + seconds * 1000;
  const one = () =>
    new Promise<void>((resolve) => {
      const t = process.hrtime.bigint();
      const req = http.get(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) errors++;
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          resolve();
        });
      });
      req.on('error', () => {
        errors++;
        resolve();
      });
    });
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) await one();
    }),
  );
  agent.destroy();
  const wall = (Date.now() - started) / 1000;
  const cpuPerRequest = pid ? ((cpuMs(pid) - cpuBefore) * 1000) / latencies.length : NaN;
  return { rps: latencies.length / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, cpuPerRequest };
}

/** A baseline server in its own process, like the real one: one of the scripts below, answering on a free port. */
function startBaseline(script: string): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    const proc = spawn(process.execPath, [...profile, '-e', script], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = out.match(/PORT (\d+)/);
      if (m) resolve({ proc, url: `http://127.0.0.1:${m[1]}` });
    });
    proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
    proc.on('exit', (code) => reject(new Error(`baseline exited with ${code}: ${out}`)));
  });
}

const BARE_NODE = `
const http = require('node:http');
const body = JSON.stringify({ status: 'ok' });
const s = http.createServer((req, res) => { res.writeHead(200, { 'Content-Type': 'application/json' }); res.end(body); });
s.keepAliveTimeout = 65000;
s.listen(0, '127.0.0.1', () => console.log('PORT ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

/** Nest's own hello world: one module, one controller, one GET answering JSON, on Express. */
const BARE_NEST = `
require('reflect-metadata');
(async () => {
  const { Module, Controller, Get } = await import('@nestjs/common');
  const { NestFactory } = await import('@nestjs/core');
  class HelloController { hello() { return { status: 'ok' }; } }
  const hello = Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello');
  Reflect.decorate([Get('api/health')], HelloController.prototype, 'hello', hello);
  const C = Reflect.decorate([Controller()], HelloController);
  class AppModule {}
  const M = Reflect.decorate([Module({ controllers: [C] })], AppModule);
  const app = await NestFactory.create(M, { logger: false });
  await app.listen(0, '127.0.0.1');
  app.getHttpServer().keepAliveTimeout = 65000;
  console.log('PORT ' + app.getHttpServer().address().port);
  process.on('SIGTERM', () => process.exit(0));
})();`;

interface Subject {
  what: string;
  appDb: string;
  url: string;
  pid: number;
  headers?: Record<string, string>;
}

interface Row {
  what: string;
  appDb: string;
  /** One per round, in round order. */
  loads: Load[];
}

/** A server under test and how to stop it. */
interface Running {
  subjects: Subject[];
  stop: () => Promise<void>;
}

async function baseline(what: string, script: string): Promise<Running> {
  const server = await startBaseline(script);
  return { subjects: [{ what, appDb: '-', url: `${server.url}/api/health`, pid: server.proc.pid! }], stop: () => stopServer(server.proc) };
}

async function ours(appDb: 'sqlite' | 'postgres'): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-floor-'));
  const env: Record<string, string> = {};
  const pgName = `bench_floor_${appDb}_${Date.now().toString(36)}`;
  if (appDb === 'postgres') env.DATABASE_URL = (await ensurePgDatabase(PG_ADMIN_URL, pgName)).toString();
  const server = await startServer(dataDir, env);
  const session = await login(server.url, ADMIN);
  return {
    subjects: [
      { what: 'GET /api/health', appDb, url: `${server.url}/api/health`, pid: server.proc.pid! },
      {
        what: 'GET /api/user/current (session)',
        appDb,
        url: `${server.url}/api/user/current`,
        pid: server.proc.pid!,
        headers: { 'X-Metabase-Session': session },
      },
    ],
    stop: async () => {
      await stopServer(server.proc);
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (appDb === 'postgres') await dropPgDatabase(pgName);
    },
  };
}

/**
 * Every server runs from the start and the subjects take turns, round after round: a ratio compares figures of
 * the same round, so a change in the machine's load during the run moves both sides of it.
 */
async function measureAll(): Promise<Row[]> {
  const running: Running[] = [];
  try {
    running.push(await baseline('bare Node HTTP server', BARE_NODE), await baseline('bare Nest-on-Express hello world', BARE_NEST));
    running.push(await ours('sqlite'), await ours('postgres'));
    const subjects = running.flatMap((r) => r.subjects);
    const rows: Row[] = subjects.map((s) => ({ what: s.what, appDb: s.appDb, loads: [] }));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, s] of subjects.entries()) {
        log(`floor: round ${round}: ${s.what} (${s.appDb})`);
        await load(s.url, s.headers, Math.max(2, SECONDS / 4)); // warm-up
        rows[i].loads.push(await load(s.url, s.headers, SECONDS, s.pid));
      }
    }
    return rows;
  } finally {
    for (const r of running) await r.stop();
  }
}

async function dropPgDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function floorBench(): Promise<string> {
  const rows = await measureAll();
  const nest = rows.find((r) => r.what.startsWith('bare Nest'))!;
  const target = (r: Row) => {
    if (r.appDb === '-') return '';
    const ratio = median(r.loads.map((l, round) => l.rps / nest.loads[round].rps));
    const wanted = r.what.startsWith('GET /api/health') ? 0.7 : 0.5;
    return `${(ratio * 100).toFixed(1)}% of bare Nest: ${ratio >= wanted ? 'met' : 'missed'} (>= ${wanted * 100}%)`;
  };
  const rps = (r: Row) => r.loads.map((l) => Math.round(l.rps).toLocaleString('en-US')).join(' / ');
  return [
    '## Request floor',
    '',
    `${CLIENTS} keep-alive clients in a closed loop for ${SECONDS} s after a warm-up, from the bench process to a server in its`,
    `own process on loopback (${os.cpus().length} cores shared by both). All servers run at once and take turns, ${ROUNDS} rounds;`,
    "requests/s per round, p50 and p99 of the last round; the ratio is the median of the rounds' ratios to bare Nest",
    "in the same round. The CPU ratio is bare Nest's server CPU time per request over this row's: the same comparison",
    "without the load generator's share of the two cores in it.",
    '',
    '| server | app DB | requests/s (per round) | p50 (ms) | p99 (ms) | errors |' +
      ' server CPU per request (µs, median) | CPU ratio | target |',
    '|---|---|---|---|---|---|---:|---:|---|',
    ...rows.map((r) => {
      const last = r.loads[r.loads.length - 1];
      const errors = r.loads.reduce((n, l) => n + l.errors, 0);
      const cpu = median(r.loads.map((l) => l.cpuPerRequest));
      const cpuRatio = r.appDb === '-' ? '' : `${((100 * median(nest.loads.map((l) => l.cpuPerRequest))) / cpu).toFixed(0)}%`;
      const cells = [r.what, r.appDb, rps(r), last.p50.toFixed(1), last.p99.toFixed(1), errors, cpu.toFixed(0), cpuRatio, target(r)];
      return `| ${cells.join(' | ')} |`;
    }),
  ].join('\n');
}
