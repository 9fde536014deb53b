import * as path from 'node:path';
import { DataSource } from 'typeorm';
import { AppSql } from '../../src/common/database/app-sql';
import { sql } from '../../src/common/database/sql';
import { APP_DB, freshAppDb, type TestDb } from '../support/app-db';

jest.setTimeout(60_000);

/**
 * AppSql.batches on the app database of this project: a listing read a batch at a time on a connection of its own,
 * the shared connections free meanwhile, and nothing held once the loop is left, however it is left.
 */
describe(`AppSql.batches (${APP_DB})`, () => {
  let db: TestDb;
  let ds: DataSource;
  let app: AppSql;

  beforeAll(async () => {
    db = await freshAppDb();
    ds = await new DataSource(
      APP_DB === 'postgres'
        ? { type: 'postgres', url: db.env.DATABASE_URL, extra: { max: 2 } }
        : {
            type: 'better-sqlite3',
            database: path.join(db.dataDir, 'app.db'),
            prepareDatabase: (h: { pragma(s: string): unknown }) => void h.pragma('journal_mode = WAL'),
          },
    ).initialize();
    app = new AppSql(ds);
    await app.execute('CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20))');
    for (let i = 1; i <= 25; i++) await app.execute(sql`INSERT INTO item (id, name) VALUES (${i}, ${`n${String(i).padStart(2, '0')}`})`);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('yields the rows in order, a batch at a time, with bound values, while other statements run', async () => {
    const sizes: number[] = [];
    const names: string[] = [];
    for await (const rows of app.batches<{ name: string }>(sql`SELECT name FROM item WHERE id > ${3} ORDER BY name DESC`, 10)) {
      sizes.push(rows.length);
      names.push(...rows.map((r) => r.name));
      // The shared connections answer meanwhile (on Postgres the pool has two, one of them held by the cursor).
      expect(await app.query(sql`SELECT COUNT(*) AS n FROM item`)).toHaveLength(1);
    }
    expect(sizes).toEqual([10, 10, 2]);
    expect(names[0]).toBe('n25');
    expect(names.at(-1)).toBe('n04');
  });

  it('gives its connection back when the loop is left early or the statement fails', async () => {
    // More early exits than the pool has connections: one leaked each time would make a later one wait forever.
    for (let i = 0; i < 5; i++) {
      for await (const rows of app.batches(sql`SELECT id FROM item ORDER BY id`, 5)) {
        expect(rows).toHaveLength(5);
        break;
      }
    }
    for (let i = 0; i < 3; i++) {
      const failing = async () => {
        for await (const rows of app.batches(sql`SELECT missing_column FROM item`, 5)) expect(rows).toBeUndefined();
      };
      await expect(failing()).rejects.toThrow(/missing_column/);
    }
    let n = 0;
    for await (const rows of app.batches(sql`SELECT id FROM item`, 100)) n += rows.length;
    expect(n).toBe(25);
  });

  it('fails at the batch the database fails on, also while the caller is still busy with the one before', async () => {
    // Row 20 fails only when the database reaches it: in the fourth batch of five, read while the third is handled.
    const failAt20 =
      APP_DB === 'postgres'
        ? sql`SELECT id, 1 / (id - 20) AS x FROM item ORDER BY id`
        : sql`SELECT id, CASE WHEN id = 20 THEN json('broken') END AS x FROM item ORDER BY id`;
    const seen: number[] = [];
    const read = async () => {
      for await (const rows of app.batches<{ id: number }>(failAt20, 5)) {
        seen.push(...rows.map((r) => Number(r.id)));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await expect(read()).rejects.toThrow(/division by zero|malformed JSON/);
    expect(seen).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    let n = 0;
    for await (const rows of app.batches(sql`SELECT id FROM item`, 100)) n += rows.length;
    expect(n).toBe(25);
  });
});
