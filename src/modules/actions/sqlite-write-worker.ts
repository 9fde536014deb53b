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

/** How long the read-write open that rolls back a killed writer's journal may take. */
const RECOVERY_TIMEOUT_MS = 30_000;
const TIMED_OUT = Symbol('timed out');

/**
 * Runs the statements in one transaction in a child process, killed after `timeoutMs` (SQLite has no statement
 * timeout, and a statement running in-process would hold the server's event loop). A killed transaction never
 * commits, but it leaves its rollback journal behind, and the read-only connections that queries use cannot roll a
 * journal back (SQLite refuses them: "attempt to write a readonly database"). So once the killed writer has exited,
 * a second writer opens the file read-write and reads it, which rolls the journal back, before the caller is told.
 */
export async function sqliteWriteInWorker(details: FileDetails, statements: WriteStatement[], timeoutMs: number): Promise<WorkerOutcome[]> {
  const outcome = await runInChild(details, statements, timeoutMs);
  if (outcome !== TIMED_OUT) return outcome;
  const recovered = await runInChild(details, [{ sql: 'SELECT count(*) AS n FROM sqlite_master', params: [] }], RECOVERY_TIMEOUT_MS).then(
    (r) => r !== TIMED_OUT,
    () => false,
  );
  throw new SqliteWriteError(
    recovered
      ? `The write took longer than ${timeoutMs / 1000} seconds and was rolled back.`
      : `The write took longer than ${timeoutMs / 1000} seconds and was stopped; it will be rolled back when the database is next written.`,
  );
}

/** One child process running the statements; TIMED_OUT once the child, killed at `timeoutMs`, has exited. */
function runInChild(details: FileDetails, statements: WriteStatement[], timeoutMs: number): Promise<WorkerOutcome[] | typeof TIMED_OUT> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['-e', WORKER_SOURCE, require.resolve('better-sqlite3')], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env,
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  return new Promise<WorkerOutcome[] | typeof TIMED_OUT>((resolve, reject) => {
    let settled = false;
    let timedOut = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      fn();
    };
    // Killed, but answered only on its exit: until then it holds the file's lock and its journal is not yet hot.
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('message', (m: { outcomes?: WorkerOutcome[]; error?: string }) =>
      finish(() => (m.error !== undefined ? reject(new SqliteWriteError(m.error)) : resolve(m.outcomes ?? []))),
    );
    child.once('error', (e) => finish(() => reject(new SqliteWriteError(`Could not start the SQLite writer: ${e.message}`))));
    child.once('exit', () =>
      finish(() =>
        timedOut
          ? resolve(TIMED_OUT)
          : reject(new SqliteWriteError(`The SQLite writer stopped.${stderr ? ` ${stderr.trim().split('\n').pop()}` : ''}`)),
      ),
    );
    child.once('spawn', () => child.send({ file: details.db, statements }));
  });
}
