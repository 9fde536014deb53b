/**
 * The floor suite of `npm run bench`: what one request costs when it does almost nothing. Four servers answer
 * the same closed-loop load (BENCH_FLOOR_CLIENTS keep-alive clients for BENCH_FLOOR_SECONDS each, after a warm-up):
 * a bare Node HTTP server and a bare Nest-on-Express app (the baselines, in child processes like the server), then
 * the server's `GET /api/health` and an authenticated `GET /api/user/current`, on the SQLite and on the Postgres
 * app DB. Targets are ratios to the bare Nest app of the same run: health at 70% or more, user/current at 50%.
 * BENCH_PROFILE=dir also writes CPU profiles of the servers.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { Client } from 'pg';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, ensurePgDatabase, log, login, percentile, ROOT, startServer, stopServer } from './http';

const SECONDS = Number(process.env.BENCH_FLOOR_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_FLOOR_CLIENTS ?? 50);
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Closed loop: each client sends its next request when the last one is answered. */
async function load(url: string, headers: Record<string, string> = {}, seconds = SECONDS): Promise<Load> {
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
  return { rps: latencies.length / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

/** Warm-up, then the measured run. */
async function measure(url: string, headers: Record<string, string> = {}): Promise<Load> {
  await load(url, headers, Math.max(2, SECONDS / 4));
  return load(url, headers);
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
  Reflect.decorate([Get('api/health')], HelloController.prototype, 'hello', Object.getOwnPropertyDescriptor(HelloController.prototype, 'hello'));
  const C = Reflect.decorate([Controller()], HelloController);
  class AppModule {}
  const M = Reflect.decorate([Module({ controllers: [C] })], AppModule);
  const app = await NestFactory.create(M, { logger: false });
  await app.listen(0, '127.0.0.1');
  app.getHttpServer().keepAliveTimeout = 65000;
  console.log('PORT ' + app.getHttpServer().address().port);
  process.on('SIGTERM', () => process.exit(0));
})();`;

interface Row {
  what: string;
  appDb: string;
  load: Load;
}

async function baselines(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [what, script] of [['bare Node HTTP server', BARE_NODE], ['bare Nest-on-Express hello world', BARE_NEST]] as const) {
    const server = await startBaseline(script);
    try {
      log(`floor: ${what}`);
      rows.push({ what, appDb: '-', load: await measure(`${server.url}/api/health`) });
    } finally {
      await stopServer(server.proc);
    }
  }
  return rows;
}

async function serverRows(appDb: 'sqlite' | 'postgres'): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-floor-'));
  const env: Record<string, string> = {};
  const pgName = `bench_floor_${Date.now().toString(36)}`;
  if (appDb === 'postgres') env.DATABASE_URL = (await ensurePgDatabase(PG_ADMIN_URL, pgName)).toString();
  const server = await startServer(dataDir, env);
  try {
    const session = await login(server.url, ADMIN);
    log(`floor: ${appDb} app DB`);
    const health = await measure(`${server.url}/api/health`);
    const current = await measure(`${server.url}/api/user/current`, { 'X-Metabase-Session': session });
    return [
      { what: 'GET /api/health', appDb, load: health },
      { what: 'GET /api/user/current (session)', appDb, load: current },
    ];
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (appDb === 'postgres') await dropPgDatabase(pgName);
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
  const base = await baselines();
  const nest = base[1].load.rps;
  const rows = [...base, ...(await serverRows('sqlite')), ...(await serverRows('postgres'))];
  const target = (r: Row) => {
    if (r.appDb === '-') return '';
    const ratio = r.load.rps / nest;
    const wanted = r.what.startsWith('GET /api/health') ? 0.7 : 0.5;
    return `${(ratio * 100).toFixed(0)}% of bare Nest: ${ratio >= wanted ? 'met' : 'missed'} (>= ${wanted * 100}%)`;
  };
  return [
    '## Request floor',
    '',
    `${CLIENTS} keep-alive clients in a closed loop for ${SECONDS} s after a warm-up, from the bench process to a server in its`,
    `own process on loopback (${os.cpus().length} cores shared by both). Every figure is from the same run.`,
    '',
    '| server | app DB | requests/s | p50 (ms) | p99 (ms) | errors | target |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.what} | ${r.appDb} | ${Math.round(r.load.rps).toLocaleString('en-US')} | ${r.load.p50.toFixed(1)} | ${r.load.p99.toFixed(1)} | ${r.load.errors} | ${target(r)} |`),
  ].join('\n');
}
