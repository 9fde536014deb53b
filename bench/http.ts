/** What every benchmark suite shares: the built server as its own process, and a keep-alive HTTP client. */
import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { Client } from 'pg';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const DATA = path.join(ROOT, 'bench', 'data');
export const ADMIN = { email: 'bench@example.com', password: 'Bench-mark-2026!' };

/**
 * The node flags `npm start` runs the server with (and the Dockerfile's CMD, test/process/dockerfile.spec.ts): the bench
 * measures that server.
 */
export const SERVER_NODE_FLAGS: string[] = (
  JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start
  .split(/\s+/)
  .filter((arg) => arg.startsWith('--'));

/** The built server as its own process; `flags` are node's (by default `npm start`'s). */
export function startServer(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  flags = SERVER_NODE_FLAGS,
): Promise<{ proc: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    // BENCH_PROFILE=dir writes a CPU profile of the server there when it stops.
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    // BENCH_SERVER_MAIN: a server built elsewhere than dist/ (a suite measured without rebuilding dist).
    const main = process.env.BENCH_SERVER_MAIN ?? path.join(ROOT, 'dist', 'src', 'main.js');
    // The server as `npm start` runs it: its settings are the defaults (log level and format, the Sample Database,
    // scheduled syncs) unless a suite says otherwise in extraEnv; only where it listens, its data directory, the
    // folder of the bench's DuckDB files and its first admin are set. Its stdout is a pipe, as under a container or
    // a service manager, so it logs JSON lines (at a terminal it would log pretty lines: see bench/results.md).
    const proc = spawn(process.execPath, [...profile, ...flags, main], {
      env: {
        PATH: process.env.PATH ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        ALLOWED_FILE_DIRS: DATA,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // The server's DuckDB caps, its C heap trim and its per-user request limit, when a run wants to see what they cost.
        ...extraEnv,
        ...Object.fromEntries(
          ['DUCKDB_MEMORY_LIMIT', 'DUCKDB_THREADS', 'MALLOC_TRIM_INTERVAL_SECONDS', 'MAX_QUERY_REQUESTS_PER_USER']
            .filter((k) => process.env[k])
            .map((k) => [k, process.env[k]!]),
        ),
      },
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 60_000);
    const onData = (b: Buffer) => {
      out += b.toString();
      // The API's URL: with METRICS_PORT set, the metrics server's URL is logged first.
      const m = out.match(/"url":"(http:\/\/[^"]+)"[^\n]*"msg":"Server started"/);
      if (m) {
        clearTimeout(timer);
        // From here on the log is read and dropped: the benchmark process has measuring to do.
        for (const stream of [proc.stdout!, proc.stderr!]) stream.off('data', onData).resume();
        resolve({ proc, url: m[1] });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** Stops a server started by startServer. */
export function stopServer(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.on('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

/** Node's own HTTP client with keep-alive: fetch (undici) adds most of a millisecond per request itself. */
export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function api(
  url: string,
  session: string | null,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: unknown; ms: number }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + route,
      {
        method,
        agent,
        headers: {
          'Content-Type': 'application/json',
          ...(payload ? { 'Content-Length': Buffer.byteLength(payload) } : {}),
          ...(session ? { 'X-Metabase-Session': session } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          const raw = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, json: raw.length ? JSON.parse(raw.toString()) : null, ms });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export async function login(url: string, user: { email: string; password: string }): Promise<string> {
  const res = await api(url, null, 'POST', '/api/session', { username: user.email, password: user.password });
  if (res.status !== 200) throw new Error(`could not log in as ${user.email}: ${JSON.stringify(res.json)}`);
  return (res.json as { id: string }).id;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** The p-th percentile (0..100), nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function log(msg: string): void {
  process.stderr.write(`${msg}\n`);
}

/** The URL of database `name` on the server of `adminUrl`, created when missing (bench data is reused between runs). */
export async function ensurePgDatabase(adminUrl: string, name: string): Promise<URL> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url;
}

/** Linux's USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS = 100;

/** User and system CPU time of process `pid` so far, in ms, from /proc: 10 ms steps, fine summed over many runs (0 elsewhere). */
export function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are the 14th and 15th fields of the line, the 12th and 13th after the command.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** A process's resident memory (VmRSS of /proc/<pid>/status), in MB. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}
