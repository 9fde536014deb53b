import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteWriteInWorker } from './sqlite-write-worker';

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
    await expect(sqliteWriteInWorker({ db: file }, [{ sql: endless, params: [] }], 500)).rejects.toThrow(
      'The write took longer than 0.5 seconds and was rolled back.',
    );
    // The killed writer's journal is rolled back before the answer: a read-only connection (as queries open the
    // file) cannot do that itself, and would fail with "attempt to write a readonly database".
    expect(fs.existsSync(`${file}-journal`)).toBe(false);
    expect(count()).toBe(0);
  });
});
