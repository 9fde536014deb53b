import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteWriteInWorker } from './sqlite-write-worker';

// The real spawn, watched: the test sees the writer processes the module starts.
jest.mock('node:child_process', () => {
  const actual = jest.requireActual<typeof import('node:child_process')>('node:child_process');
  return { ...actual, spawn: jest.fn(actual.spawn) };
});

/** The SQLite action writer's worker: one transaction, rolled back on a failure and on a kill at the time limit. */
describe('sqliteWriteInWorker', () => {
  let dir: string;
  let file: string;
  const count = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  /**
   * Whether a rollback journal is left that a reader must roll back: one whose header starts with SQLite's journal
   * magic. A killed writer can also leave a journal with a zeroed header, which readers ignore.
   */
  const hotJournal = () => {
    const journal = `${file}-journal`;
    if (!fs.existsSync(journal)) return false;
    const head = Buffer.alloc(8);
    const fd = fs.openSync(journal, 'r');
    try {
      fs.readSync(fd, head, 0, 8, 0);
    } finally {
      fs.closeSync(fd);
    }
    return head.equals(Buffer.from('d9d505f920a163d7', 'hex'));
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'action-writer-'));
    file = path.join(dir, 'w.db');
    const db = new Database(file);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL CHECK (v >= 0))');
    db.close();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('runs the statements in order and answers rows and changes', async () => {
    const out = await sqliteWriteInWorker(
      { db: file },
      [
        { sql: 'INSERT INTO t (id, v) VALUES (?, ?), (?, ?)', params: [1, 10, 2, 20] },
        { sql: 'UPDATE t SET v = v + ? RETURNING id, v', params: [1] },
      ],
      10_000,
    );
    expect(out).toEqual([
      { rows: [], changes: 2 },
      {
        rows: [
          { id: 1, v: 11 },
          { id: 2, v: 21 },
        ],
        changes: 2,
      },
    ]);
  });

  it('rolls every statement back when a later one fails, with the database message', async () => {
    await expect(
      sqliteWriteInWorker(
        { db: file },
        [
          { sql: 'INSERT INTO t (id, v) VALUES (?, ?)', params: [1, 1] },
          { sql: 'INSERT INTO t (id, v) VALUES (?, ?)', params: [2, -1] },
        ],
        10_000,
      ),
    ).rejects.toThrow(/CHECK constraint failed/);
    expect(count()).toBe(0);
  });

  it('kills a write that runs past the time limit; nothing of it is committed, and readers see the file at once', async () => {
    const endless = 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) INSERT INTO t (id, v) SELECT n, n FROM r';
    const spawned = jest.mocked(spawn);
    spawned.mockClear();
    await expect(sqliteWriteInWorker({ db: file }, [{ sql: endless, params: [] }], 500)).rejects.toThrow(
      'The write took longer than 0.5 seconds and was rolled back.',
    );
    // The answer waits for the killed writer's exit (until then it holds the file's lock), then a second writer
    // opens the file to roll the journal back.
    const writers = spawned.mock.results.map((r) => r.value as ChildProcess);
    expect(writers).toHaveLength(2);
    expect(writers[0].signalCode).toBe('SIGKILL');
    // The killed writer's journal is rolled back before the answer: a read-only connection (as queries open the
    // file) cannot do that itself, and would fail with "attempt to write a readonly database".
    expect(hotJournal()).toBe(false);
    expect(count()).toBe(0);
  });
});
