/**
 * The upload suite of `npm run bench`: a CSV of BENCH_UPLOAD_ROWS rows (default 1,000,000) by 10 columns (integers,
 * a datetime, a date, text, floats, a boolean, a text with nulls), generated once into bench/data/, uploaded
 * through POST /api/card/from-csv into Postgres (database `bench_upload`) and into DuckDB (a fresh file in
 * bench/data/). The time is the whole request: both passes over the file (types, then rows), the load in one
 * transaction, the sync of the new table and the model's creation. Target: 100,000 rows/s on both engines.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { Client } from 'pg';
import { ADMIN, api, DATA, ensurePgDatabase, log, login, startServer, stopServer } from './http';

const ROWS = Number(process.env.BENCH_UPLOAD_ROWS ?? 1_000_000);
const PG_ADMIN = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PG_DB = 'bench_upload';
const TARGET_ROWS_PER_SECOND = 100_000;
const CATEGORIES = ['Doohickey', 'Gadget', 'Gizmo', 'Widget'];

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid: number | undefined): number | null {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

/**
 * Writes the CSV unless it is there already (same rows every run). `untidy`: the first column is no key (`order_no`,
 * so one is generated) and every fifth quantity has spaces around it, the file a loader must normalize.
 */
async function ensureCsv(file: string, untidy: boolean): Promise<void> {
  if (fs.existsSync(file)) return;
  log(`writing ${ROWS} rows to ${file}`);
  const out = fs.createWriteStream(`${file}.tmp`);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(`${untidy ? 'order_no' : 'id'},created_at,day,category,name,quantity,price,discount,active,note\n`);
  let chunk = '';
  for (let g = 1; g <= ROWS; g++) {
    const at = new Date(Date.UTC(2020, 0, 1) + g * 37_000).toISOString().slice(0, 19).replace('T', ' ');
    const day = new Date(Date.UTC(2020, 0, 1) + (g % 1500) * 86_400_000).toISOString().slice(0, 10);
    const quantity = untidy && g % 5 === 0 ? ` ${g % 97} ` : g % 97;
    const note = g % 10 === 0 ? '' : `A note about order ${g}`;
    chunk += `${g},${at},${day},${CATEGORIES[g % 4]},Product ${g.toString(36)},${quantity},${((g % 10000) / 7).toFixed(2)},`;
    chunk += `${(g % 13) / 100},${g % 3 === 0},${note}\n`;
    if (g % 10_000 === 0) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  await new Promise<void>((r) => out.end(() => r()));
  fs.renameSync(`${file}.tmp`, file);
}

/** Streams the file as multipart/form-data (the file is never held in memory here either). */
function uploadFile(url: string, session: string, file: string): Promise<{ status: number; body: string; ms: number }> {
  const boundary = `bench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="collection_id"\r\n\r\nroot\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench orders.csv"\r\nContent-Type: text/csv\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + fs.statSync(file).size + tail.length;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/api/card/from-csv`,
      {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': length, 'X-Metabase-Session': session },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const src = fs.createReadStream(file);
    src.on('error', reject);
    src.pipe(req, { end: false });
    src.on('end', () => req.end(tail));
  });
}

export async function uploadBench(): Promise<string> {
  fs.mkdirSync(DATA, { recursive: true });
  const files: Array<[string, string]> = [
    ['own `id` key', path.join(DATA, `upload-${ROWS}.csv`)],
    ['generated key, values to trim', path.join(DATA, `upload-${ROWS}-untidy.csv`)],
  ];
  for (const [, file] of files) await ensureCsv(file, file.endsWith('-untidy.csv'));
  const duckFile = path.join(DATA, 'upload-target.duckdb');
  fs.rmSync(duckFile, { force: true });
  (await DuckDBInstance.create(duckFile)).closeSync();
  // A fresh database each run: tables of earlier runs would make the sync after the upload slower and slower.
  const admin = new Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${PG_DB}`).finally(() => admin.end());
  const pgUrl = await ensurePgDatabase(PG_ADMIN, PG_DB);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-upload-'));
  const server = await startServer(dataDir);
  const lines: string[] = [];
  try {
    const session = await login(server.url, ADMIN);
    const targets: Array<[string, Record<string, unknown>]> = [
      [
        'postgres',
        { host: pgUrl.hostname, port: Number(pgUrl.port || 5432), dbname: PG_DB, user: decodeURIComponent(pgUrl.username) || 'postgres' },
      ],
      ['duckdb', { db: duckFile }],
    ];
    for (const [engine, details] of targets) {
      const created = await api(server.url, session, 'POST', '/api/database', { engine, name: `bench upload ${engine}`, details });
      if (created.status !== 200) throw new Error(`database not created: ${JSON.stringify(created.json)}`);
      const db = (created.json as { id: number }).id;
      for (;;) {
        const d = (await api(server.url, session, 'GET', `/api/database/${db}`)).json as { initial_sync_status: string };
        if (d.initial_sync_status !== 'incomplete') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const set = await api(server.url, session, 'PUT', '/api/setting/uploads-settings', {
        value: { db_id: db, schema_name: null, table_prefix: 'bench_' },
      });
      if (set.status !== 204) throw new Error(`uploads-settings not set: ${JSON.stringify(set.json)}`);
      for (const [kind, csv] of files) {
        log(`uploading ${ROWS} rows (${kind}) into ${engine}`);
        const cpuBefore = cpuSeconds(server.proc.pid);
        const res = await uploadFile(server.url, session, csv);
        const cpuAfter = cpuSeconds(server.proc.pid);
        const cpu = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
        if (res.status !== 200) throw new Error(`upload into ${engine} failed: ${res.status} ${res.body}`);
        const model = Number(res.body);
        const q = (
          await api(server.url, session, 'POST', '/api/dataset', {
            database: db,
            type: 'query',
            query: { 'source-table': `card__${model}`, aggregation: [['count']] },
          })
        ).json as { data: { rows: unknown[][] } };
        const count = Number(q.data.rows[0][0]);
        const rate = ROWS / (res.ms / 1000);
        const perCpu = cpu ? `${cpu.toFixed(1)} s (${Math.round(ROWS / cpu).toLocaleString('en-US')} rows per CPU-second)` : 'n/a';
        lines.push(
          `| ${engine} | ${kind} | ${ROWS.toLocaleString('en-US')} | ${(res.ms / 1000).toFixed(1)} s |` +
            ` ${Math.round(rate).toLocaleString('en-US')} | ${perCpu} | ${count === ROWS ? 'yes' : `no (${count})`} |` +
            ` ${rate >= TARGET_ROWS_PER_SECOND ? 'met' : 'missed'} |`,
        );
        log(lines[lines.length - 1]);
      }
    }
  } finally {
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const size = (fs.statSync(files[0][1]).size / 1024 / 1024).toFixed(0);
  return [
    '## CSV upload',
    '',
    `POST /api/card/from-csv of a ${size} MB CSV (${ROWS.toLocaleString('en-US')} rows,` +
      ' 10 columns: integers, datetime, date, text, floats, boolean, text with nulls),',
    'once as it is and once without a key of its own and with spaces around every fifth quantity,' +
      ' timed over the whole request: type detection',
    'over every row, the load in one transaction (Postgres `COPY FROM STDIN` of the file,' +
      ' or of the parsed rows when they need normalizing; DuckDB',
    "`read_csv` of the server's temporary copy with values normalized and cast in SQL and a generated key numbered by `row_number()`),",
    `the sync (with fingerprints) of the new table and the model. Target ${TARGET_ROWS_PER_SECOND.toLocaleString('en-US')} rows/s.` +
      ` ${os.cpus().length} cores,`,
    `load average ${os.loadavg()[0].toFixed(1)} when the run ended, ${new Date().toISOString().slice(0, 10)}.` +
      " Server CPU is the server process's own (user + system; Postgres's",
    'work on COPY is not in it, DuckDB runs inside the process).',
    '',
    '| engine | file | rows | time | rows/s | server CPU | model counts all rows | target |',
    '|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
