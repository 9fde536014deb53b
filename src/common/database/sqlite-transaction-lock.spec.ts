import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { requestContext } from '../logging/request-context';
import { lockSqliteTransactions } from './sqlite-transaction-lock';

/** Several "requests" (async contexts) writing through TypeORM's single shared better-sqlite3 runner. */
describe('lockSqliteTransactions', () => {
  let dir: string;
  let ds: DataSource;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-lock-'));
    ds = await new DataSource({ type: 'better-sqlite3', database: path.join(dir, 'x.db') }).initialize();
    lockSqliteTransactions(ds);
    await ds.query('CREATE TABLE t (v TEXT UNIQUE)');
  });
  afterEach(async () => {
    await ds.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const asRequest = <T>(id: string, work: () => Promise<T>) => requestContext.run({ requestId: id }, work);
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it("keeps one request's rollback from undoing another's committed work", async () => {
    const failing = asRequest('a', () =>
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (v) VALUES ('from-a')`);
        await tick();
        throw new Error('a fails');
      }),
    );
    const succeeding = asRequest('b', () =>
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (v) VALUES ('from-b')`);
        await tick();
      }),
    );
    const plainWrite = asRequest('c', () => ds.query(`INSERT INTO t (v) VALUES ('from-c')`));
    await expect(failing).rejects.toThrow('a fails');
    await succeeding;
    await plainWrite;
    const rows: Array<{ v: string }> = await ds.query('SELECT v FROM t ORDER BY v');
    expect(rows.map((r) => r.v)).toEqual(['from-b', 'from-c']);
  });

  it('runs many concurrent transactions to completion without nesting them', async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        asRequest(`r${i}`, () =>
          ds.transaction(async (m) => {
            await tick();
            await m.query('INSERT INTO t (v) VALUES (?)', [`v${i}`]);
          }),
        ),
      ),
    );
    expect((await ds.query('SELECT count(*) AS n FROM t'))[0].n).toBe(20);
  });
});
