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
function handle(readonly) {
  const key = readonly ? 'ro' : 'rw';
  if (!handles[key]) {
    const db = new Database(file, { readonly, fileMustExist: true, timeout: 5000 });
    db.defaultSafeIntegers(true);
    handles[key] = db;
  }
  return handles[key];
}
process.on('message', (m) => {
  try {
    const db = handle(m.readOnly || !writable);
    const stmt = db.prepare(m.sql);
    if (m.readOnly && !stmt.readonly) {
      const e = new Error('Only statements that read data are allowed here.');
      e.code = 'READ_ONLY';
      throw e;
    }
    if (!stmt.reader) {
      stmt.run(...m.params);
      process.send({ columns: [], rows: [] });
      return;
    }
    stmt.raw(true);
    const columns = stmt.columns().map((c) => ({ name: c.name, type: c.type }));
    const rows = [];
    for (const row of stmt.iterate(...m.params)) {
      rows.push(row);
      if (m.maxRows && rows.length >= m.maxRows) break;
    }
    process.send({ columns, rows });
  } catch (e) {
    process.send({ error: { message: String((e && e.message) || e), code: e && e.code } });
  }
});
process.on('disconnect', () => process.exit(0));
`;

export class SqliteExecutor {
  private pending: { resolve(r: ExecReply): void; reject(e: Error): void } | null = null;
  private exited = false;
  private stderr = '';

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (m: ExecReply & { error?: { message: string; code?: string } }) => {
      const p = this.pending;
      this.pending = null;
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

  run(request: ExecRequest): Promise<ExecReply> {
    if (this.exited) return Promise.reject(new ConnectionError('The SQLite worker stopped.'));
    if (this.pending) return Promise.reject(new Error('SqliteExecutor runs one statement at a time'));
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.child.send(request);
    });
  }

  /** Stops the statement for good: the process and its handles go. */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL');
  }
}
