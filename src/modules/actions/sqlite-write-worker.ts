import { spawn } from 'node:child_process';
import type { FileDetails } from '../../query-engine/execute/drivers/details';
import type { WriteStatement } from './action-sql';

/** What the worker answers: each statement's returned rows and changed-row count, or the database's refusal. */
export interface WorkerOutcome {
  rows: Record<string, unknown>[];
  changes: number;
}

/**
 * The worker: opens the file read-write, runs every statement in one transaction (better-sqlite3 rolls it back when
 * one throws), answers and exits. Plain JS, run with `node -e`.
 */
const WORKER_SOURCE = `
'use strict';
const Database = require(process.argv[1]);
process.once('message', (m) => {
  let db;
  try {
    db = new Database(m.file, { fileMustExist: true, timeout: 5000 });
    db.pragma('foreign_keys = ON');
    const all = db.transaction((list) => list.map((s) => {
      const stmt = db.prepare(s.sql);
      if (stmt.reader) { const rows = stmt.all(...s.params); return { rows, changes: rows.length }; }
      return { rows: [], changes: stmt.run(...s.params).changes };
    }));
    process.send({ outcomes: all(m.statements) });
  } catch (e) {
    process.send({ error: String((e && e.message) || e) });
  } finally {
    if (db) db.close();
  }
});
process.on('disconnect', () => process.exit(0));
`;

export class SqliteWriteError extends Error {}

/**
 * Runs the statements in one transaction in a child process, killed after `timeoutMs` (SQLite has no statement
 * timeout, and a statement running in-process would hold the server's event loop): a killed transaction never
 * commits, and SQLite rolls its journal back on the next open.
 */
export function sqliteWriteInWorker(details: FileDetails, statements: WriteStatement[], timeoutMs: number): Promise<WorkerOutcome[]> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['-e', WORKER_SOURCE, require.resolve('better-sqlite3')], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  return new Promise<WorkerOutcome[]>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null) child.kill('SIGKILL');
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new SqliteWriteError(`The write took longer than ${timeoutMs / 1000} seconds and was rolled back.`))),
      timeoutMs,
    );
    child.once('message', (m: { outcomes?: WorkerOutcome[]; error?: string }) =>
      finish(() => (m.error !== undefined ? reject(new SqliteWriteError(m.error)) : resolve(m.outcomes ?? []))),
    );
    child.once('error', (e) => finish(() => reject(new SqliteWriteError(`Could not start the SQLite writer: ${e.message}`))));
    child.once('exit', () =>
      finish(() => reject(new SqliteWriteError(`The SQLite writer stopped.${stderr ? ` ${stderr.trim().split('\n').pop()}` : ''}`))),
    );
    child.once('spawn', () => child.send({ file: details.db, statements }));
  });
}
