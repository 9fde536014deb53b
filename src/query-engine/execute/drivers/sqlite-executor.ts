import { spawn, type ChildProcess } from 'node:child_process';
import { ConnectionError, QueryError } from './errors';

export interface ExecRequest {
  sql: string;
  params: (string | number | bigint | null)[];
  readOnly: boolean;
  maxRows?: number;
}

export interface ExecReply {
  /** `type` is the declared type of a table column, null for expressions. */
  columns: { name: string; type: string | null }[];
  rows: unknown[][];
}

/** One batch of a result read in batches; after the last one (`done`) the worker holds nothing open. */
export interface ExecBatch {
  rows: unknown[][];
  done: boolean;
}

/**
 * `report_tz(ts, zone)`: a naive UTC timestamp ('YYYY-MM-DD HH:MM:SS[.fff]' or ISO, an offset or 'Z' allowed) as
 * wall-clock time in the IANA zone, in SQLite's own 'YYYY-MM-DD HH:MM:SS[.fff]' form (the compiler's report time
 * zone; SQLite knows no named zones). NULL gives NULL, text that is no timestamp gives NULL (as datetime() does),
 * an unknown zone is an error. Plain JS so that it runs in the worker (CHILD_SOURCE) and in tests (reportTz).
 */
export const REPORT_TZ_SOURCE = `
const reportTzFormats = new Map();
function reportTz(ts, zone) {
  if (ts === null || ts === undefined) return null;
  if (typeof zone !== 'string') throw new Error('report_tz: the time zone must be text.');
  let fmt = reportTzFormats.get(zone);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone: zone, hourCycle: 'h23',
        year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch (e) {
      throw new Error('report_tz: unknown time zone ' + JSON.stringify(zone) + '.');
    }
    if (reportTzFormats.size > 100) reportTzFormats.clear();
    reportTzFormats.set(zone, fmt);
  }
  const m = /^(\\d{4})-(\\d{2})-(\\d{2})(?:[T ](\\d{2}):(\\d{2})(?::(\\d{2})(\\.\\d+)?)?)?(Z|[+-]\\d{2}:?\\d{2})?$/.exec(String(ts).trim());
  if (!m) return null;
  const d = new Date(0);
  d.setUTCFullYear(+m[1], +m[2] - 1, +m[3]);
  d.setUTCHours(m[4] ? +m[4] : 0, m[5] ? +m[5] : 0, m[6] ? +m[6] : 0, 0);
  let ms = d.getTime();
  if (Number.isNaN(ms)) return null;
  if (m[8] && m[8] !== 'Z') {
    const digits = m[8].slice(1).replace(':', '');
    ms -= (m[8][0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60000;
  }
  const parts = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const pad = (v, n) => String(Number(v)).padStart(n, '0');
  const year = parts.era === 'BC' ? 1 - Number(parts.year) : Number(parts.year);
  return pad(year, 4) + '-' + pad(parts.month, 2) + '-' + pad(parts.day, 2) + ' ' +
    pad(Number(parts.hour) % 24, 2) + ':' + pad(parts.minute, 2) + ':' + pad(parts.second, 2) + (m[7] || '');
}
`;

/** The report_tz function for tests and in-process use: the same source the worker runs. */
export const reportTz = new Function(`${REPORT_TZ_SOURCE}\nreturn reportTz;`)() as (ts: unknown, zone: unknown) => string | null;

/**
 * better-sqlite3 is synchronous and has no interrupt: a statement runs to its end inside one native call, and
 * even a worker thread cannot be stopped before that call returns. So SQLite statements run in a small child
 * process per pooled "connection", which can be killed, and the server's event loop never blocks on them.
 * The read-only handle is opened with `readonly: true`; a read-only request also needs the statement itself to
 * be read-only (better-sqlite3's `stmt.readonly`).
 */
const CHILD_SOURCE = `
'use strict';
const Database = require(process.argv[1]);
const file = process.argv[2];
const writable = process.argv[3] === '1';
const handles = {};
${REPORT_TZ_SOURCE}
function handle(readonly) {
  const key = readonly ? 'ro' : 'rw';
  if (!handles[key]) {
    const db = new Database(file, { readonly, fileMustExist: true, timeout: 5000 });
    db.defaultSafeIntegers(true);
    db.function('report_tz', { deterministic: true }, reportTz);
    handles[key] = db;
  }
  return handles[key];
}
// The statement being read in batches: one at a time, kept between the parent's messages.
let open = null;
function close() {
  const iter = open && open.iter;
  open = null;
  if (iter) iter.return();
}
function nextBatch() {
  const rows = [];
  const want = Math.min(open.size, open.left);
  while (rows.length < want) {
    const r = open.iter.next();
    if (r.done) break;
    rows.push(r.value);
  }
  open.left -= rows.length;
  const done = rows.length < want || open.left === 0;
  if (done) close();
  return { rows, done };
}
process.on('message', (m) => {
  try {
    if (m.stop) {
      close();
      return;
    }
    if (m.more) {
      process.send(open ? nextBatch() : { rows: [], done: true });
      return;
    }
    close();
    const db = handle(m.readOnly || !writable);
    const stmt = db.prepare(m.sql);
    if (m.readOnly && !stmt.readonly) {
      const e = new Error('Only statements that read data are allowed here.');
      e.code = 'READ_ONLY';
      throw e;
    }
    if (!stmt.reader) {
      stmt.run(...m.params);
      process.send({ columns: [], rows: [], done: true });
      return;
    }
    stmt.raw(true);
    const columns = stmt.columns().map((c) => ({ name: c.name, type: c.type }));
    // Without batchRows the whole result goes in one message.
    open = { iter: stmt.iterate(...m.params), left: m.maxRows || Infinity, size: m.batchRows || Infinity };
    process.send({ columns, ...nextBatch() });
  } catch (e) {
    try {
      close();
    } catch {
      // The statement failed already; its iterator may be unusable.
    }
    process.send({ error: { message: String((e && e.message) || e), code: e && e.code } });
  }
});
process.on('disconnect', () => process.exit(0));
`;

type Reply = ExecReply & ExecBatch;

export class SqliteExecutor {
  private pending: { resolve(r: Reply): void; reject(e: Error): void } | null = null;
  /** The worker holds a statement read in batches, between two of them. */
  private reading = false;
  private exited = false;
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: Reply & { error?: { message: string; code?: string } }) => {
      const p = this.pending;
      this.pending = null;
      this.reading = !m.error && !m.done;
      if (!p) return;
      if (m.error) p.reject(new QueryError(m.error.message, m.error.code));
      else p.resolve(m);
    });
    child.stderr?.on('data', (d: Buffer) => {
      this.stderr = (this.stderr + d.toString()).slice(-2000);
    });
    child.on('exit', () => {
      this.exited = true;
      const p = this.pending;
      this.pending = null;
      p?.reject(new ConnectionError(`The SQLite worker stopped.${this.stderr ? ` ${this.stderr.trim().split('\n').pop()}` : ''}`));
    });
  }

  static start(file: string, writable: boolean): Promise<SqliteExecutor> {
    const env = { ...process.env };
    // Whatever the server was started with (--require hooks, an inspector) is not for the worker.
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, ['-e', CHILD_SOURCE, require.resolve('better-sqlite3'), file, writable ? '1' : '0'], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      env,
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve(new SqliteExecutor(child)));
      child.once('error', (e) => reject(new ConnectionError(`Could not start the SQLite worker: ${e.message}`)));
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** The whole result in one reply. */
  run(request: ExecRequest): Promise<ExecReply> {
    return this.ask(request);
  }

  /**
   * The columns and the first `batchRows` rows; more() asks for each next batch, which the worker reads only
   * then. Until a batch comes back `done`, the statement stays open in the worker: stop() closes it.
   */
  open(request: ExecRequest, batchRows: number): Promise<ExecReply & ExecBatch> {
    return this.ask({ ...request, batchRows });
  }

  more(): Promise<ExecBatch> {
    return this.ask({ more: true });
  }

  /** Closes a statement left open between batches (nothing to wait for: the worker takes messages in order). */
  stop(): void {
    if (!this.reading || this.exited || this.pending) return;
    this.reading = false;
    this.child.send({ stop: true });
  }

  private ask(message: object): Promise<Reply> {
    if (this.exited) return Promise.reject(new ConnectionError('The SQLite worker stopped.'));
    if (this.pending) return Promise.reject(new Error('SqliteExecutor runs one statement at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(message);
    });
  }

  /** Stops the statement for good: the process and its handles go. */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
