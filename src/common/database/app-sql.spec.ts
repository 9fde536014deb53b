import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DataSource, QueryFailedError } from 'typeorm';
import { requestContext } from '../logging/request-context';
import { AppSql } from './app-sql';
import { raw, sql as sqlText } from './sql';
import { lockSqliteTransactions } from './sqlite-transaction-lock';
import { isUniqueViolation } from './unique-violation';

/** AppSql on SQLite: prepared statements on the handle, unless another request's transaction is open. */
describe('AppSql (SQLite)', () => {
  let dir: string;
  let ds: DataSource;
  let sql: AppSql;
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'app-sql-'));
    ds = await new DataSource({
      type: 'better-sqlite3',
      database: path.join(dir, 'x.db'),
      // As the app opens it (data-source-options.ts).
      prepareDatabase: (db: { pragma(s: string): unknown }) => void db.pragma('journal_mode = WAL'),
    }).initialize();
    lockSqliteTransactions(ds);
    await ds.query('CREATE TABLE t (v TEXT UNIQUE, at TEXT, flag INTEGER)');
    sql = new AppSql(ds);
  });
  afterEach(async () => {
    await ds.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('yields a SELECT in batches from a connection of its own, while the shared one serves other statements', async () => {
    for (const v of ['a', 'b', 'c', 'd', 'e']) await sql.execute('INSERT INTO t (v) VALUES ($1)', [v]);
    const seen: string[][] = [];
    for await (const rows of sql.batches<{ v: string }>(sqlText`SELECT v FROM t WHERE v <> ${'x'} ORDER BY v`, 2)) {
      seen.push(rows.map((r) => r.v));
      // A write on the shared handle midway: it neither fails (the iterated statement is not on that handle) nor
      // shows up in the snapshot being read.
      await sql.execute('INSERT INTO t (v) VALUES ($1)', [`new${seen.length}`]);
    }
    expect(seen).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('stops reading when the loop is left early', async () => {
    for (const v of ['a', 'b', 'c']) await sql.execute('INSERT INTO t (v) VALUES ($1)', [v]);
    const seen: string[] = [];
    for await (const rows of sql.batches<{ v: string }>(sqlText`SELECT v FROM t ORDER BY v`, 1)) {
      seen.push(rows[0].v);
      break;
    }
    expect(seen).toEqual(['a']);
    // The reader connection is closed: the file can be written without waiting on a held read.
    expect(await sql.execute('DELETE FROM t')).toBe(3);
  });

  it('fails a batched SELECT with the error type of every other path', async () => {
    const read = async () => {
      for await (const rows of sql.batches(sqlText`SELECT nope FROM t`, 10)) expect(rows).toBeUndefined();
    };
    await expect(read()).rejects.toBeInstanceOf(QueryFailedError);
  });

  it('reads and writes with $n placeholders, converting dates and booleans as the ORM stores them', async () => {
    expect(await sql.execute('INSERT INTO t (v, at, flag) VALUES ($1, $2, $3)', ['a', new Date('2026-01-02T03:04:05.006Z'), true])).toBe(1);
    expect(await sql.query('SELECT v, at, flag FROM t WHERE flag = $1', [true])).toEqual([
      { v: 'a', at: '2026-01-02 03:04:05.006', flag: 1 },
    ]);
    expect(await sql.execute('UPDATE t SET flag = $1 WHERE v = $2', [false, 'nobody'])).toBe(0);
  });

  it('matches a column against any number of ids bound as one value', async () => {
    await sql.execute('INSERT INTO t (v, flag) VALUES ($1, 1), ($2, 2), ($3, 3)', ['a', 'b', 'c']);
    const many = [2, 3, ...Array.from({ length: 40_000 }, (_, i) => 100 + i)];
    expect(await sql.query(sqlText`SELECT v FROM t WHERE ${sql.idIn(raw('flag'), many)} ORDER BY v`)).toEqual([{ v: 'b' }, { v: 'c' }]);
    expect(await sql.query(sqlText`SELECT v FROM t WHERE ${sql.idIn(raw('flag'), [])}`)).toEqual([]);
  });

  it('binds a repeated or out-of-order placeholder to the value its number names, on both paths', async () => {
    await sql.execute('INSERT INTO t (v, at, flag) VALUES ($2, $1, $3)', ['at-value', 'v-value', true]);
    expect(await sql.query('SELECT v, at FROM t WHERE v = $2 OR at = $2 OR v = $1', ['nothing', 'v-value'])).toEqual([
      { v: 'v-value', at: 'at-value' },
    ]);
    expect(await sql.query('SELECT $1 AS a, $2 AS b, $1 AS c', ['x', 'y'])).toEqual([{ a: 'x', b: 'y', c: 'x' }]);
    // Inside a transaction the ORM's runner takes the query: the same binding.
    await ds.transaction(async () => {
      expect(await sql.query('SELECT $2 AS b, $1 AS a, $2 AS d', ['x', 'y'])).toEqual([{ b: 'y', a: 'x', d: 'y' }]);
    });
    await expect(sql.query('SELECT $3 AS missing', ['x'])).rejects.toThrow('No value for placeholder $3 (1 given)');
  });

  it('throws what the ORM throws for a unique violation', async () => {
    await sql.execute('INSERT INTO t (v) VALUES ($1)', ['dup']);
    const error = await sql.execute('INSERT INTO t (v) VALUES ($1)', ['dup']).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("never reads another request's uncommitted writes: it waits for that transaction to end", async () => {
    let inside!: () => void;
    const opened = new Promise<void>((r) => (inside = r));
    let finish!: () => void;
    const held = new Promise<void>((r) => (finish = r));
    const writer = requestContext.run({ requestId: 'writer' }, () =>
      ds.transaction(async (m) => {
        await m.query(`INSERT INTO t (v) VALUES ('uncommitted')`);
        inside();
        await held;
        throw new Error('rolled back');
      }),
    );
    await opened;
    const read = requestContext.run({ requestId: 'reader' }, () => sql.query<{ v: string }>('SELECT v FROM t'));
    setTimeout(finish, 20);
    await expect(writer).rejects.toThrow('rolled back');
    expect(await read).toEqual([]);
  });
});
