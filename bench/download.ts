/**
 * The download suite of `npm run bench`: a saved question of BENCH_DOWNLOAD_ROWS rows (default 1,048,575, the
 * download cap) by 10 columns, on Postgres (database `bench_download`) and on DuckDB (bench/data/), downloaded as
 * CSV, XLSX and JSON, three times in a row per format. For each download: rows/s and the server's peak resident
 * memory above what it held just before (VmRSS of /proc/<pid>/status, sampled every 50 ms from this process); after
 * the three, the resident memory against where it stood before the first.
 * Through POST /api/card/:id/query/:format when the server has it (BENCH_DOWNLOAD_VIA=dataset: never), else
 * POST /api/dataset/:format with the card's query.
 */
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { Client } from 'pg';
import { ADMIN, agent, api, DATA, ensurePgDatabase, log, login, rssMb, startServer, stopServer } from './http';

const ROWS = Number(process.env.BENCH_DOWNLOAD_ROWS ?? 1_048_575);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_download';
const TABLE = 'downloads';
const FORMATS = ['csv', 'xlsx', 'json'] as const;
type Format = (typeof FORMATS)[number];
const REPEATS = 3;
const SAMPLE_MS = 50;
/** How long after the third download the memory is read again: the server's idle GC has run by then. */
const SETTLE_MS = 10_000;
const TARGETS = { csvRowsPerSecond: 150_000, xlsxSeconds: 60, peakMb: 100, retainedMb: 50 };

/**
 * Ten columns of the kinds a download holds: an id, a timestamp, a date, short and longer text, integers, a
 * decimal, a float and a boolean. The same values on both engines (md5 of the id for the text).
 */
const COLUMNS = 'id, created_at, day, category, name, quantity, price, discount, active, note';
const PG_SQL = `CREATE TABLE ${TABLE} AS SELECT
  g::bigint AS id,
  TIMESTAMP '2020-01-01' + g * INTERVAL '37 seconds' AS created_at,
  DATE '2020-01-01' + (g % 1500) AS day,
  (ARRAY['Doohickey','Gadget','Gizmo','Widget'])[1 + g % 4] AS category,
  'Product ' || md5(g::text) AS name,
  (g % 97)::int AS quantity,
  round((g % 10000) / 7.0, 2)::numeric(10,2) AS price,
  ((g % 13) / 100.0)::double precision AS discount,
  (g % 3 = 0) AS active,
  CASE WHEN g % 10 = 0 THEN NULL ELSE 'A note about order ' || g END AS note
FROM generate_series(1, $ROWS) AS g`;
const DUCK_SQL = `CREATE TABLE ${TABLE} AS SELECT
  g::BIGINT AS id,
  TIMESTAMP '2020-01-01' + g * INTERVAL 37 SECOND AS created_at,
  (DATE '2020-01-01' + (g % 1500)::INTEGER)::DATE AS day,
  (['Doohickey','Gadget','Gizmo','Widget'])[1 + g % 4] AS category,
  'Product ' || md5(g::VARCHAR) AS name,
  (g % 97)::INTEGER AS quantity,
  round((g % 10000) / 7.0, 2)::DECIMAL(10,2) AS price,
  ((g % 13) / 100.0)::DOUBLE AS discount,
  (g % 3 = 0) AS active,
  CASE WHEN g % 10 = 0 THEN NULL ELSE 'A note about order ' || g END AS note
FROM range(1, $ROWS + 1) t(g)`;

interface Download {
  ms: number;
  bytes: number;
  rows: number | null;
  beforeMb: number;
  peakMb: number;
  status: number;
}
interface Series {
  engine: string;
  format: Format;
  downloads: Download[];
  startMb: number;
  afterMb: number;
  settledMb: number;
  checkedRows: number | null;
}

export async function downloadBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const duckFile = path.join(DATA, `download-${ROWS}.duckdb`);
  await ensureDuckdb(duckFile);
  const pgUrl = await ensurePostgres();
  const series: Series[] = [];
  let route = '';
  let hwmMb = 0;
  const loadStart = os.loadavg()[0];
  for (const [engine, details] of [
    ['postgres', { host: pgUrl.hostname, port: Number(pgUrl.port || 5432), dbname: PG_DB, user: pgUrl.username || 'postgres' }],
    ['duckdb', { db: duckFile }],
  ] as Array<[string, Record<string, unknown>]>) {
    for (const format of FORMATS.filter((f) => !process.env.BENCH_FORMATS || process.env.BENCH_FORMATS.split(',').includes(f))) {
      // A fresh server per series: each starts from a server that has downloaded nothing yet, not from the memory
      // the series before it left mapped.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-download-'));
      const server = await startServer(dataDir);
      const pid = server.proc.pid!;
      try {
        const admin = await login(server.url, ADMIN);
        const viaCard = process.env.BENCH_DOWNLOAD_VIA === 'dataset' ? false : await hasCardExport(server.url, admin);
        route = viaCard
          ? 'POST /api/card/:id/query/:format'
          : "POST /api/dataset/:format (the card's query; the card endpoint is not there yet)";
        const card = await saveCard(server.url, admin, engine, details);
        series.push(await downloadSeries(server.url, admin, pid, card, viaCard, engine, format, dataDir));
        hwmMb = Math.max(hwmMb, readStatus(pid, 'VmHWM') / 1024);
      } finally {
        await stopServer(server.proc);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  agent.destroy();
  log(`downloads through ${route}`);
  return report(series, route, hwmMb, [loadStart, os.loadavg()[0]]);
}

/** Three downloads in a row of one format, then the memory after them and SETTLE_MS later. */
async function downloadSeries(
  url: string,
  admin: string,
  pid: number,
  card: { id: number; query: Record<string, unknown> },
  viaCard: boolean,
  engine: string,
  format: Format,
  dataDir: string,
): Promise<Series> {
  const s: Series = { engine, format, downloads: [], startMb: rssMb(pid), afterMb: 0, settledMb: 0, checkedRows: null };
  const keep = format === 'xlsx' ? path.join(dataDir, 'last.xlsx') : null;
  for (let i = 0; i < REPEATS; i++) {
    const d = await download(url, admin, pid, card, viaCard, format, i === REPEATS - 1 ? keep : null);
    if (d.status !== 200) throw new Error(`${engine} ${format}: HTTP ${d.status}`);
    s.downloads.push(d);
    log(
      `${engine} ${format} #${i + 1}: ${(d.ms / 1000).toFixed(1)} s, ${d.rows ?? '?'} rows, ${(d.bytes / 1e6).toFixed(0)} MB,` +
        ` RSS ${d.beforeMb.toFixed(0)} -> peak ${d.peakMb.toFixed(0)} MB`,
    );
  }
  s.afterMb = rssMb(pid);
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  s.settledMb = rssMb(pid);
  if (keep) {
    s.checkedRows = await xlsxRows(keep);
    fs.rmSync(keep);
  }
  log(
    `${engine} ${format}: RSS ${s.startMb.toFixed(0)} MB before, ${s.afterMb.toFixed(0)} MB right after the third,` +
      ` ${s.settledMb.toFixed(0)} MB ${SETTLE_MS / 1000} s later`,
  );
  return s;
}

async function ensureDuckdb(file: string): Promise<void> {
  if (fs.existsSync(file)) return;
  log(`Writing ${ROWS.toLocaleString('en-US')} rows into ${file} ...`);
  const tmp = `${file}.tmp`;
  fs.rmSync(tmp, { force: true });
  const db = await DuckDBInstance.create(tmp);
  const conn = await db.connect();
  await conn.run(DUCK_SQL.replace('$ROWS', String(ROWS)));
  conn.closeSync();
  db.closeSync();
  fs.renameSync(tmp, file);
}

async function ensurePostgres(): Promise<URL> {
  const url = await ensurePgDatabase(PG_ADMIN, PG_DB);
  const c = new Client({ connectionString: url.toString() });
  await c.connect();
  try {
    const have = await c.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = $1`, [TABLE]);
    const rows = have.rows[0].n === 1 ? Number((await c.query(`SELECT count(*) AS n FROM ${TABLE}`)).rows[0].n) : -1;
    if (rows !== ROWS) {
      log(`Writing ${ROWS.toLocaleString('en-US')} rows into Postgres ${PG_DB} ...`);
      await c.query(`DROP TABLE IF EXISTS ${TABLE}`);
      await c.query(PG_SQL.replace('$ROWS', String(ROWS)));
      await c.query(`ALTER TABLE ${TABLE} ADD PRIMARY KEY (id)`);
      await c.query(`ANALYZE ${TABLE}`);
    }
  } finally {
    await c.end();
  }
  return url;
}

/**
 * The database, synced, and a saved question of all its rows as the table has them (no sort: an ORDER BY on DuckDB
 * sorts the whole result inside the server process, which is the query's memory, not the download's).
 */
async function saveCard(
  url: string,
  session: string,
  engine: string,
  details: Record<string, unknown>,
): Promise<{ id: number; query: Record<string, unknown> }> {
  const created = await api(url, session, 'POST', '/api/database', { engine, name: `bench download ${engine}`, details });
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
  const table = meta.tables.find((t) => t.name === TABLE);
  if (!table) throw new Error(`${engine}: table ${TABLE} not synced`);
  if (table.fields.length !== COLUMNS.split(',').length) throw new Error(`${engine}: ${table.fields.length} fields synced`);
  const query = { database: db, type: 'query', query: { 'source-table': table.id } };
  const card = await api(url, session, 'POST', '/api/card', {
    name: `Download ${engine}`,
    display: 'table',
    visualization_settings: {},
    dataset_query: query,
  });
  if (card.status !== 200) throw new Error(`card ${engine}: ${JSON.stringify(card.json).slice(0, 300)}`);
  return { id: (card.json as { id: number }).id, query };
}

/**
 * Whether POST /api/card/:id/query/:format exists: an unknown card answers the app's 404, an unknown route
 * "API endpoint does not exist.".
 */
function hasCardExport(url: string, session: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/card/2147483647/query/csv`,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': 2, 'X-Metabase-Session': session } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(!text.includes('API endpoint does not exist')));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end('{}');
  });
}

/**
 * One download, read to its end as a client would (nothing kept but a count of rows: CSV lines, JSON objects),
 * the server's VmRSS sampled meanwhile. `keep`: a file to write the body to (for XLSX, read back after the timing).
 */
function download(
  url: string,
  session: string,
  pid: number,
  card: { id: number; query: Record<string, unknown> },
  viaCard: boolean,
  format: Format,
  keep: string | null,
): Promise<Download> {
  const route = viaCard ? `/api/card/${card.id}/query/${format}` : `/api/dataset/${format}`;
  const payload = JSON.stringify(viaCard ? { format_rows: false } : { query: card.query, format_rows: false });
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), SAMPLE_MS);
  const started = process.hrtime.bigint();
  return new Promise<Download>((resolve, reject) => {
    const req = http.request(
      url + route,
      {
        method: 'POST',
        agent,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), 'X-Metabase-Session': session },
      },
      (res) => {
        let bytes = 0;
        let marks = 0;
        let tail = '';
        const out = keep ? fs.createWriteStream(keep) : null;
        // CSV: one line per row after the header; JSON: one `},{` between rows (no value here holds one).
        const mark = format === 'csv' ? '\n' : '},{';
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (out) out.write(chunk);
          if (format === 'xlsx') return;
          const text = tail + chunk.toString('latin1');
          for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + mark.length)) marks++;
          tail = text.slice(Math.max(0, text.length - mark.length + 1));
        });
        res.on('end', () => {
          const ms = Number(process.hrtime.bigint() - started) / 1e6;
          clearInterval(sampler);
          peakMb = Math.max(peakMb, rssMb(pid));
          const rows = format === 'csv' ? marks - 1 : format === 'json' ? (bytes > 2 ? marks + 1 : 0) : null;
          const done = () => resolve({ ms, bytes, rows, beforeMb, peakMb, status: res.statusCode ?? 0 });
          if (out) out.end(done);
          else done();
        });
        res.on('error', reject);
      },
    );
    req.on('error', (e) => {
      clearInterval(sampler);
      reject(e);
    });
    req.end(payload);
  });
}

/** Rows of the first sheet of an XLSX file, header excluded, read with exceljs's streaming reader. */
async function xlsxRows(file: string): Promise<number> {
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'ignore',
    hyperlinks: 'ignore',
  });
  for await (const sheet of reader) {
    for await (const _row of sheet) rows++;
  }
  return rows - 1;
}

/** The build measured: its commit, and whether the tree it was built from had changes beyond it. */
function build(): string {
  try {
    const hash = execSync('git rev-parse --short HEAD', { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const dirty =
      execSync('git status --porcelain --untracked-files=no -- src', { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() !== '';
    return `server built at ${hash}${dirty ? ' with uncommitted changes in src/' : ''}`;
  } catch {
    return 'server built outside a git checkout';
  }
}

function report(series: Series[], route: string, hwmMb: number, load: [number, number]): string {
  const verdict = (ok: boolean) => (ok ? 'met' : 'missed');
  const lines = [
    '## Downloads: memory and speed',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}),` +
      ` ${build()}.`,
    `A saved question of ${ROWS.toLocaleString('en-US')} rows by 10 columns (bigint, timestamp, date, two texts, integer,`,
    'decimal, float, boolean, a text with nulls), unsorted, on Postgres and on DuckDB; downloaded with `format_rows=false`',
    `through ${route}, three times in a row per format, each read to its end by a client in the benchmark process.`,
    "Memory is the server process's VmRSS, sampled every 50 ms: the peak delta is the highest sample of a download",
    'minus the RSS just before it (the worst of the three); "after three" is the RSS right after the third and',
    `${SETTLE_MS / 1000} s later, against the RSS before the first.` +
      ` Targets: CSV at least ${TARGETS.csvRowsPerSecond.toLocaleString('en-US')} rows/s, XLSX under`,
    `${TARGETS.xlsxSeconds} s, peak delta under ${TARGETS.peakMb} MB, back within ${TARGETS.retainedMb} MB after three downloads.`,
    '',
    '| engine | format | rows | size (MB) | time (s, 3 runs) | rows/s (best) | peak RSS delta (MB, 3 runs) |' +
      ' RSS before / after three / settled (MB) | targets |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...series.map((s) => {
      const rows = s.downloads[0].rows ?? s.checkedRows ?? ROWS;
      const best = Math.min(...s.downloads.map((d) => d.ms));
      const rate = rows / (best / 1000);
      const deltas = s.downloads.map((d) => d.peakMb - d.beforeMb);
      const worstDelta = Math.max(...deltas);
      const retained = s.settledMb - s.startMb;
      const checks = [
        s.format === 'csv' ? `speed ${verdict(rate >= TARGETS.csvRowsPerSecond)}` : null,
        s.format === 'xlsx' ? `time ${verdict(Math.max(...s.downloads.map((d) => d.ms)) < TARGETS.xlsxSeconds * 1000)}` : null,
        `peak ${verdict(worstDelta < TARGETS.peakMb)}`,
        `after three ${verdict(retained < TARGETS.retainedMb)} (${retained >= 0 ? '+' : ''}${retained.toFixed(0)} MB)`,
      ].filter(Boolean);
      const rowsText =
        s.format === 'xlsx'
          ? `${(s.checkedRows ?? ROWS).toLocaleString('en-US')}${s.checkedRows === null ? '' : ' (read back)'}`
          : rows.toLocaleString('en-US');
      const cells = [
        s.engine,
        s.format,
        rowsText,
        (s.downloads[0].bytes / 1e6).toFixed(0),
        s.downloads.map((d) => (d.ms / 1000).toFixed(1)).join(', '),
        Math.round(rate).toLocaleString('en-US'),
        deltas.map((d) => d.toFixed(0)).join(', '),
        `${s.startMb.toFixed(0)} / ${s.afterMb.toFixed(0)} / ${s.settledMb.toFixed(0)}`,
        checks.join('; '),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    `Server peak resident memory (VmHWM, the highest of the series\' servers): ${hwmMb.toFixed(0)} MB.` +
      ' Load average (1 min) at the start and the end',
    `of the suite: ${load[0].toFixed(1)} and ${load[1].toFixed(1)} on ${os.cpus().length} cores;` +
      ' the times are only as good as the machine was quiet.',
    '',
    'Each series (engine and format) runs on a fresh server process, after it has connected and synced the database and',
    'saved the card: "RSS before" is that server\'s, and VmHWM is the highest of the series\' servers.',
    '',
    'What the writers do about memory and speed (profiled on this data):',
    "- XLSX: exceljs's streaming workbook writes the sheet XML into its zip entry without heeding that stream's",
    '  backpressure; the writer waits while more than 1 MiB of XML is queued there (before: the uncompressed XML',
    '  piled up, 700-885 MB at the first download). Each row is committed as soon as it is added (rows held for a',
    '  batch outlived the scavenges; committing each at once halved the CPU), every cell of a column and kind shares',
    "  one style object (exceljs caches a style id per object, else renders the style's XML per cell), and the zip",
    "  is deflated at level 1 (the file is about as small). What is left is exceljs's own cost per cell.",
    '- CSV: a batch is one string and one write; numbers, booleans and strings that need no quoting are written as',
    '  they are, the rest through csv-stringify (its per-field cost alone was about 9 s of CPU per million rows).',
    "- The peaks that miss are the first download of a fresh server (the second and third peak lower): V8's heap",
    '  growing to its working size, as far as seen. JSON from DuckDB peaks about 170 MB above JSON from Postgres (CSV',
    '  is alike on both) and keeps most of it; DUCKDB_MEMORY_LIMIT=64MB (default 2GB) did not change that (+168 MB',
    "  peak, +147 MB kept), so it is not DuckDB's buffer pool within its limit; where it is has not been found yet.",
    '',
  ];
  return lines.join('\n');
}

function readStatus(pid: number, key: string): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(new RegExp(`${key}:\\s+(\\d+)`))?.[1] ?? 0);
}
