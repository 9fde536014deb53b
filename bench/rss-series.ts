/**
 * The rss suite of `npm run bench`: whether the server gives its memory back after a series of workloads (issue 22:
 * once settled, RSS within 50 MB of where it started). The built server runs as its own process with the soak
 * suite's probe inside (bench/soak-probe.ts), which reports its RSS and JS heap each second. The series: a few hundred queries, each
 * with a different literal (a cache keyed by query text grows with them), a CSV and an XLSX download of
 * BENCH_RSS_DOWNLOAD_ROWS rows (default 1,048,575, the download cap), then BENCH_RSS_CLIENTS clients (default 50)
 * querying at once for BENCH_RSS_SECONDS (default 10). Then the server is left idle until its heap has been
 * collected and its RSS stops falling (at most BENCH_RSS_SETTLE_SECONDS, default 150; see settle()).
 *
 * The warehouse is the query suite's Sample Database (BENCH_ORDERS orders; the downloads repeat ORDERS to reach
 * their row count). Each variant (BENCH_RSS_VARIANTS, `;`-separated: an engine, then KEY=VALUE settings for the
 * server's environment, and NODE_FLAGS=<comma-separated node flags> in place of `npm start`'s) gets a fresh server,
 * so allocator and V8 settings can be compared: e.g. `postgres;postgres NODE_FLAGS=--max-semi-space-size=4;postgres
 * MALLOC_ARENA_MAX=2`. BENCH_RSS_SNAPSHOT=1 also takes a heap snapshot at idle and after settling and reports which
 * constructors grew (the snapshots cost memory themselves: the RSS of such a run is not comparable).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, agent, api, DATA, log, login, ROOT, SERVER_NODE_FLAGS, startServer, stopServer } from './http';
import { connect, ensureDuckdb, ensurePostgres, Ids, ORDERS, PG_DB } from './query-overhead';

const TARGET_MB = 50;
const QUERIES = Number(process.env.BENCH_RSS_QUERIES ?? 300);
const DOWNLOAD_ROWS = Number(process.env.BENCH_RSS_DOWNLOAD_ROWS ?? 1_048_575);
const CLIENTS = Number(process.env.BENCH_RSS_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_RSS_SECONDS ?? 10);
const SETTLE_SECONDS = Number(process.env.BENCH_RSS_SETTLE_SECONDS ?? 150);
const SETTLE_WINDOW = Number(process.env.BENCH_RSS_SETTLE_WINDOW ?? 10);
/** How close to its idle size the JS heap must come before the RSS is watched for settling. */
const HEAP_SLACK_MB = 16;
/** The server as `npm start` runs it on each engine, and on Postgres with a 4 MB young generation (README, memory). */
const VARIANTS = (process.env.BENCH_RSS_VARIANTS ?? 'postgres;postgres NODE_FLAGS=--max-semi-space-size=4;duckdb')
  .split(';')
  .map((v) => v.trim())
  .filter(Boolean);
const SNAPSHOT = process.env.BENCH_RSS_SNAPSHOT === '1';

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  /** Full (mark-compact) collections the server has run so far. */
  majorGcs: number;
}
type Kinds = ReturnType<typeof residentByKind>;
interface Run {
  variant: string;
  idle: Memory;
  peakMb: number;
  afterSeries: Memory;
  settled: Memory;
  settleSeconds: number;
  kinds: [Kinds, Kinds];
  steps: Array<{ step: string; seconds: number; rssMb: number }>;
  requests: number;
  failures: number;
  growth: { kinds: HeapGrowth[]; liveMb: number } | null;
  load: [number, number];
}

export async function rssSeriesBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const duckFile = path.join(DATA, `sample-${ORDERS}.duckdb`);
  const runs: Run[] = [];
  for (const variant of VARIANTS) {
    const [engine, ...settings] = variant.split(/\s+/);
    if (engine !== 'postgres' && engine !== 'duckdb') throw new Error(`BENCH_RSS_VARIANTS: unknown engine ${engine}`);
    let details: Record<string, unknown>;
    if (engine === 'duckdb') {
      await ensureDuckdb(duckFile);
      details = { db: duckFile };
    } else {
      const pgUrl = await ensurePostgres();
      details = { host: pgUrl.hostname, port: Number(pgUrl.port || 5432), dbname: PG_DB, user: pgUrl.username || 'postgres' };
    }
    runs.push(
      await series(
        variant,
        engine,
        details,
        Object.fromEntries(settings.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)])),
      ),
    );
  }
  agent.destroy();
  return report(runs);
}

async function series(variant: string, engine: string, details: Record<string, unknown>, settings: Record<string, string>): Promise<Run> {
  const { NODE_FLAGS: nodeFlags, ...env } = settings;
  const flags = nodeFlags === undefined ? SERVER_NODE_FLAGS : nodeFlags.split(',').filter(Boolean);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-rss-'));
  const probeFile = path.join(dataDir, 'probe.jsonl');
  const nodeOptions = [
    `--require ${path.join(ROOT, 'dist', 'bench', 'soak-probe.js')}`,
    env.NODE_OPTIONS ?? '',
    SNAPSHOT ? `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dataDir}` : '',
  ].join(' ');
  // MAX_QUERIES_PER_USER: the clients share one session, and each of them is to have its query running.
  const server = await startServer(
    dataDir,
    {
      MAX_QUERIES_PER_USER: String(Math.max(10, CLIENTS)),
      ...env,
      NODE_OPTIONS: nodeOptions,
      SOAK_PROBE_FILE: probeFile,
      SOAK_PROBE_MS: '1000',
    },
    flags,
  );
  const pid = server.proc.pid!;
  const memory = () => readMemory(probeFile);
  const load0 = os.loadavg()[0];
  try {
    const admin = await login(server.url, ADMIN);
    const ids = await connect(server.url, admin, engine as never, details);
    // Idle: connected and synced, one query run (its pool open), then left until the RSS stops falling.
    await query(server.url, admin, nativeQuery(ids, 0));
    // Two full collections: the first may be the one the warm-up query's garbage set off, which left the heap 12 MB
    // and the RSS 40 MB over where the idle server's own collection (V8's memory reducer, later) takes them.
    await settle(pid, probeFile, null, 2);
    const idle = await memory();
    const idleKinds = residentByKind(pid);
    const idleSnapshot = SNAPSHOT ? await snapshot(server.proc.pid!, dataDir) : null;
    log(`rss ${variant}: idle ${idle.rssMb.toFixed(0)} MB, heap ${idle.heapUsedMb.toFixed(0)} MB`);

    let peakMb = idle.rssMb;
    const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 100);
    const steps: Run['steps'] = [];
    const step = async (name: string, work: () => Promise<void>) => {
      const t0 = Date.now();
      await work();
      steps.push({ step: name, seconds: (Date.now() - t0) / 1000, rssMb: rssMb(pid) });
      log(`rss ${variant}: ${name} in ${((Date.now() - t0) / 1000).toFixed(1)} s, RSS ${rssMb(pid).toFixed(0)} MB`);
    };
    let requests = 0;
    let failures = 0;
    const count = (ok: boolean) => {
      requests++;
      if (!ok) failures++;
    };
    try {
      await step(`${QUERIES} queries, one at a time`, async () => {
        for (let i = 1; i <= QUERIES; i++) count(await query(server.url, admin, i % 2 ? nativeQuery(ids, i) : structuredQuery(ids, i)));
      });
      for (const format of ['csv', 'xlsx'] as const) {
        await step(`${DOWNLOAD_ROWS.toLocaleString('en-US')}-row ${format.toUpperCase()} download`, async () => {
          const bytes = await download(server.url, admin, format, downloadQuery(ids));
          count(bytes > 0);
        });
      }
      await step(`${CLIENTS} clients for ${SECONDS} s`, async () => {
        const many = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
        const until = Date.now() + SECONDS * 1000;
        let n = 0;
        await Promise.all(
          Array.from({ length: CLIENTS }, async () => {
            while (Date.now() < until) {
              n++;
              count(await query(server.url, admin, n % 2 ? nativeQuery(ids, QUERIES + n) : structuredQuery(ids, QUERIES + n), many));
            }
          }),
        );
        many.destroy();
      });
    } finally {
      clearInterval(sampler);
    }
    const afterSeries = await memory();
    const settleSeconds = await settle(pid, probeFile, idle.heapUsedMb);
    const settled = await memory();
    const settledKinds = residentByKind(pid);
    log(
      `rss ${variant}: peak ${peakMb.toFixed(0)} MB, right after ${afterSeries.rssMb.toFixed(0)} MB,` +
        ` settled ${settled.rssMb.toFixed(0)} MB after ${settleSeconds} s;` +
        ` heap ${idle.heapUsedMb.toFixed(0)} -> ${settled.heapUsedMb.toFixed(0)} MB`,
    );
    // A snapshot collects the whole heap first: the heap used just after it is what is still alive.
    const growth = idleSnapshot
      ? { kinds: heapGrowth(idleSnapshot, await snapshot(pid, dataDir)), liveMb: (await memory()).heapUsedMb }
      : null;
    return {
      variant,
      idle,
      peakMb,
      afterSeries,
      settled,
      settleSeconds,
      kinds: [idleKinds, settledKinds],
      steps,
      requests,
      failures,
      growth,
      load: [load0, os.loadavg()[0]],
    };
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A one-row native query whose text differs with n. */
function nativeQuery(ids: Ids, n: number): Record<string, unknown> {
  return {
    database: ids.db,
    type: 'native',
    native: { query: `SELECT COUNT(*) AS "count", SUM("TOTAL") AS "total" FROM "ORDERS" WHERE "ID" % 1000 = ${n % 1000} AND "ID" > ${n}` },
  };
}

/** A structured query of up to 2,000 order rows (the ad hoc cap) whose filter differs with n. */
function structuredQuery(ids: Ids, n: number): Record<string, unknown> {
  return {
    database: ids.db,
    type: 'query',
    query: { 'source-table': ids.orders, filter: ['>', ['field', ids.total, null], n / 100], limit: 2000 },
  };
}

/** ORDERS repeated until it holds DOWNLOAD_ROWS rows (generate_series is a table function on both engines). */
function downloadQuery(ids: Ids): Record<string, unknown> {
  const copies = Math.max(1, Math.ceil(DOWNLOAD_ROWS / ORDERS));
  return {
    database: ids.db,
    type: 'native',
    native: { query: `SELECT o.*, g.n AS "COPY" FROM "ORDERS" o CROSS JOIN generate_series(1, ${copies}) AS g(n) LIMIT ${DOWNLOAD_ROWS}` },
  };
}

async function query(url: string, session: string, body: Record<string, unknown>, through: http.Agent = agent): Promise<boolean> {
  const res =
    through === agent ? await api(url, session, 'POST', '/api/dataset', body) : await post(url, session, '/api/dataset', body, through);
  const ok = res.status === 202 && (res.json as { status?: string }).status === 'completed';
  if (!ok) log(`query failed: ${JSON.stringify(res.json).slice(0, 300)}`);
  return ok;
}

function post(url: string, session: string, route: string, body: unknown, through: http.Agent): Promise<{ status: number; json: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url + route,
      {
        method: 'POST',
        agent: through,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), 'X-Metabase-Session': session },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          // A body that is not JSON fails the series (its server is stopped), not the whole process.
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || 'null') });
          } catch (e) {
            reject(e);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** A download read to its end and dropped, as a client saving it would; answers its size in bytes. */
function download(url: string, session: string, format: 'csv' | 'xlsx', query: Record<string, unknown>): Promise<number> {
  const payload = JSON.stringify({ query, format_rows: false });
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/dataset/${format}`,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), 'X-Metabase-Session': session },
      },
      (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${format} download: HTTP ${res.statusCode}`))));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Idle until the server has run `collections` full (mark-compact) collections since the wait began, with its JS heap
 * back within HEAP_SLACK_MB of `heapMb` when given; then until the RSS has not fallen by more than 1 MB in SETTLE_WINDOW seconds;
 * at most SETTLE_SECONDS in all. Answers the seconds waited. No GC is forced: an idle server collects on its own,
 * but only after half a minute to a minute and a half, and until then RSS stays flat (and native memory held by
 * dead wrappers, DuckDB's results for one, is still held), so a wait for RSS or for a small heap alone stops too early.
 */
export async function settle(pid: number, probeFile: string, heapMb: number | null, collections = 1): Promise<number> {
  const started = Date.now();
  const seen: number[] = [rssMb(pid)];
  const gcsBefore = lastSample(probeFile)?.majorGcs ?? 0;
  let collected = false;
  while (Date.now() - started < SETTLE_SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    seen.push(rssMb(pid));
    if (seen.length % 10 === 0) log(`  settling: RSS ${seen[seen.length - 1].toFixed(0)} MB after ${seen.length - 1} s`);
    if (!collected) {
      const last = lastSample(probeFile);
      collected = !!last && last.majorGcs >= gcsBefore + collections && (heapMb === null || last.heapUsedMb <= heapMb + HEAP_SLACK_MB);
      if (collected) seen.splice(0, seen.length - 1);
      continue;
    }
    if (seen.length > SETTLE_WINDOW && seen[seen.length - 1 - SETTLE_WINDOW] - seen[seen.length - 1] <= 1) break;
  }
  return Math.round((Date.now() - started) / 1000);
}

/** SIGUSR2 makes the server write a heap snapshot into its diagnostic dir; answers its file once written. */
async function snapshot(pid: number, dir: string): Promise<string> {
  const before = new Set(fs.readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    // Written in one go by the server; its size stops changing once done.
    if (file) {
      const size = fs.statSync(path.join(dir, file)).size;
      await new Promise((r) => setTimeout(r, 1000));
      if (fs.statSync(path.join(dir, file)).size === size && size > 0) return path.join(dir, file);
    }
  }
  throw new Error('no heap snapshot was written');
}

/**
 * The server's RSS and JS heap, from the soak suite's probe inside it (bench/soak-probe.ts: a line a second): the
 * first sample written after the call.
 */
async function readMemory(probeFile: string): Promise<Memory> {
  const asked = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const last = lastSample(probeFile);
    if (last && last.at >= asked) return last;
  }
}

function lastSample(probeFile: string): (Memory & { at: number }) | null {
  const lines = fs.existsSync(probeFile) ? fs.readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean) : [];
  if (!lines.length) return null;
  const last = JSON.parse(lines[lines.length - 1]) as { at: number; rss: number; heapUsed: number; majorGcs: number };
  return { at: last.at, rssMb: last.rss / 1048576, heapUsedMb: last.heapUsed / 1048576, majorGcs: last.majorGcs };
}

/**
 * Resident memory by kind of mapping (/proc/<pid>/smaps): mapped files (code, libraries), the brk heap (glibc's main
 * malloc arena) and other anonymous memory (V8's heap pages, other threads' malloc arenas, large malloc blocks).
 */
function residentByKind(pid: number): { filesMb: number; brkMb: number; anonMb: number } {
  const out = { filesMb: 0, brkMb: 0, anonMb: 0 };
  let kind: keyof typeof out = 'anonMb';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const mapping = line.match(/^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/);
    if (mapping) kind = mapping[1] === '[heap]' ? 'brkMb' : mapping[1].startsWith('/') ? 'filesMb' : 'anonMb';
    const rss = line.match(/^Rss:\s+(\d+) kB/);
    if (rss) out[kind] += Number(rss[1]) / 1024;
  }
  return out;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024;
}

function report(runs: Run[]): string {
  const mb = (x: number) => x.toFixed(0);
  const lines = [
    '## Memory after a series of workloads',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
    `Sample Database with ${ORDERS.toLocaleString('en-US')} orders.` +
      " Each variant (warehouse engine, then settings of the server's environment)",
    `runs on a fresh server: connected and synced, one query, idle until its heap has been collected; then ${QUERIES} queries one at a`,
    `time (each with a different literal), a CSV and an XLSX download of ${DOWNLOAD_ROWS.toLocaleString('en-US')} rows` +
      ' (ORDERS repeated), and',
    `${CLIENTS} clients querying at once for ${SECONDS} s (one session; MAX_QUERIES_PER_USER lets all their queries run);` +
      ' then idle until the JS heap has been collected and the RSS has stopped falling' +
      ` (at most ${SETTLE_SECONDS} s; the idle server collects only after 30 to 90 s). RSS is VmRSS`,
    'of /proc/<pid>/status (peak: sampled every 100 ms); the JS heap (used) from a probe in the server (bench/soak-probe.ts).' +
      ' Target (issue 22):',
    `settled RSS within ${TARGET_MB} MB of idle.`,
    '',
    '| variant | RSS idle / peak / right after / settled (MB) | settled minus idle | JS heap used idle / settled (MB) |' +
      ' requests (failed) | load (1 min) | target |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...runs.map((r) => {
      const kept = r.settled.rssMb - r.idle.rssMb;
      const cells = [
        r.variant,
        `${mb(r.idle.rssMb)} / ${mb(r.peakMb)} / ${mb(r.afterSeries.rssMb)} / ${mb(r.settled.rssMb)} (${r.settleSeconds} s)`,
        `${kept >= 0 ? '+' : ''}${mb(kept)} MB`,
        `${mb(r.idle.heapUsedMb)} / ${mb(r.settled.heapUsedMb)}`,
        `${r.requests} (${r.failures})`,
        r.load.map((l) => l.toFixed(1)).join(' -> '),
        `${kept <= TARGET_MB ? 'met' : 'missed'} (${kept <= TARGET_MB ? '<=' : '>'} ${TARGET_MB} MB)`,
      ];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    'RSS after each step (MB, seconds taken):',
    '',
    ...runs.map((r) => `- ${r.variant}: ${r.steps.map((s) => `${s.step} ${mb(s.rssMb)} (${s.seconds.toFixed(1)} s)`).join('; ')}`),
    '',
    'Resident memory by kind of mapping, idle -> settled (MB; /proc/<pid>/smaps): mapped files (code, libraries); the',
    "brk heap (glibc's main malloc arena); other anonymous memory (V8's heap pages, other threads' malloc arenas,",
    "large malloc blocks, DuckDB's buffers):",
    '',
    ...runs.map((r) => {
      const [a, b] = r.kinds;
      return (
        `- ${r.variant}: files ${mb(a.filesMb)} -> ${mb(b.filesMb)}; brk heap ${mb(a.brkMb)} -> ${mb(b.brkMb)};` +
        ` other anonymous ${mb(a.anonMb)} -> ${mb(b.anonMb)}`
      );
    }),
    '',
    `The server runs as \`npm start\` runs it (node flags: ${SERVER_NODE_FLAGS.join(' ') || 'none'}): every 10 s it hands the memory`,
    "freed in glibc's heap back to the OS (malloc_trim, MALLOC_TRIM_INTERVAL_SECONDS; src/common/memory/malloc-trim.ts).",
    'A MALLOC_TRIM_INTERVAL_SECONDS=0 variant runs it without; a NODE_FLAGS= variant with other node flags; an LD_PRELOAD=',
    'variant with another allocator. Runs of 2026-11-29 (this table and three more series, idle 120-130 MB): settled at',
    '131-141 MB in five runs with the trim, 139-209 MB in five without it (+89 MB in the run before the trim was added),',
    'and 131-169 MB in three with jemalloc. The trim made glibc as good as jemalloc and steadier, so the Docker image',
    'runs on glibc as `npm start` does. A trim took 0.2 to 4 ms, under load too.',
    '',
    'What is kept (BENCH_RSS_SNAPSHOT=1 on Postgres, 2026-11-24): not JavaScript objects. The JS heap comes back to',
    'within a few MB of idle once the idle server has run a full collection (on its own only 30 to 90 s after the last',
    'request; until then RSS stays at its level right after the series), and the heap snapshots after the series hold',
    'what they held at idle, the largest growth 1.3 MB of compiled code, the other constructors within a few hundred',
    'objects (50 pooled HTTP parsers, one per client socket). No cache grows with the number of distinct queries. What',
    'stays is freed malloc memory glibc keeps in its brk heap (the main arena: about 7 -> 50-73 MB on Postgres).',
    'Allocator settings do not give it back (runs of 2026-11-24: MALLOC_ARENA_MAX=2 +70 MB, MALLOC_TRIM_THRESHOLD_=131072',
    '+65 MB, that and MALLOC_MMAP_THRESHOLD_=131072 +85 MB, against +61 to +87 MB plain); malloc_trim(0), called from',
    'gdb right after the series (2026-11-29), took the brk heap from 43 to 20 MB: the server now calls it itself. jemalloc',
    'gives freed pages back on its own after a few seconds (its brk heap is empty; its arenas are the other anonymous',
    'memory). A smaller young generation does too:',
    "the malloc'd backing stores of short-lived Buffers are freed at the next scavenge, which comes sooner, and pile up",
    'less (--max-semi-space-size=8: +56 MB; =4: +5 to +28 MB in five runs). It is not the default because of what it',
    'costs: 100,000-row results 17-28% over the direct run instead of 3% on Postgres (the query suite, same day and',
    'build), as the rows waiting to be written survive more scavenges; and 1-6% more CPU on the cheapest requests.',
    'A heap snapshot itself leaves about 400 MB of freed malloc memory mapped, which is how large that retention can get.',
    '',
  ];
  for (const r of runs.filter((x) => x.growth)) {
    lines.push(`Heap snapshot, ${r.variant}: what grew between idle and settled (self size; the snapshots cost memory themselves, so this`);
    lines.push(`run's RSS is not comparable). JS heap still alive after the settled snapshot: ${r.growth!.liveMb.toFixed(0)} MB.`, '');
    lines.push('| kind / constructor | count idle -> settled | self size idle -> settled (MB) |', '|---|---:|---:|');
    for (const g of r.growth!.kinds)
      lines.push(
        `| ${g.name} | ${g.countBefore} -> ${g.countAfter} |` +
          ` ${(g.bytesBefore / 1048576).toFixed(2)} -> ${(g.bytesAfter / 1048576).toFixed(2)} |`,
      );
    lines.push('');
  }
  return lines.join('\n');
}

export interface HeapGrowth {
  name: string;
  countBefore: number;
  countAfter: number;
  bytesBefore: number;
  bytesAfter: number;
}

/** The 15 kinds of heap object (constructor name for objects, else the node type) whose self size grew most. */
function heapGrowth(before: string, after: string): HeapGrowth[] {
  const a = heapCensus(before);
  const b = heapCensus(after);
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names]
    .map((name) => ({
      name,
      countBefore: a.get(name)?.count ?? 0,
      countAfter: b.get(name)?.count ?? 0,
      bytesBefore: a.get(name)?.bytes ?? 0,
      bytesAfter: b.get(name)?.bytes ?? 0,
    }))
    .sort((x, y) => y.bytesAfter - y.bytesBefore - (x.bytesAfter - x.bytesBefore))
    .slice(0, 15);
}

/**
 * Count and self size per kind of node in a V8 heap snapshot. Read by hand, not with JSON.parse: a snapshot can
 * be larger than the longest string V8 makes. Layout: {"snapshot":{"meta":...},"nodes":[...],"edges":[...],
 * ...,"strings":[...]}.
 */
function heapCensus(file: string): Map<string, { count: number; bytes: number }> {
  const buf = fs.readFileSync(file);
  const nodesAt = buf.indexOf('"nodes":[');
  const head = JSON.parse(`${buf.subarray(0, nodesAt).toString().trim().replace(/,$/, '')}}`) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
  };
  const fields = head.snapshot.meta.node_fields;
  const types = head.snapshot.meta.node_types[0];
  const stringsAt = buf.lastIndexOf('"strings":[');
  const strings = JSON.parse(buf.subarray(stringsAt + '"strings":'.length, buf.lastIndexOf(']') + 1).toString()) as string[];
  const [TYPE, NAME, SIZE] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const census = new Map<string, { count: number; bytes: number }>();
  let field = 0;
  let node: number[] = [];
  let num = -1;
  for (let i = nodesAt + '"nodes":['.length; i < buf.length; i++) {
    const c = buf[i];
    if (c >= 48 && c <= 57) {
      num = (num < 0 ? 0 : num * 10) + (c - 48);
      continue;
    }
    if (num >= 0) {
      node[field++] = num;
      num = -1;
      if (field === fields.length) {
        const type = types[node[TYPE]];
        const name = type === 'object' || type === 'native' ? `${type} ${strings[node[NAME]]}` : type;
        const entry = census.get(name) ?? { count: 0, bytes: 0 };
        entry.count++;
        entry.bytes += node[SIZE];
        census.set(name, entry);
        field = 0;
        node = [];
      }
    }
    if (c === 93) break; // ]
  }
  return census;
}
