import { createConnection } from 'mysql2/promise';
import { MysqlDialect } from '../../src/query-engine/compile/dialects/mysql';
import type { WarehouseDriver } from '../../src/query-engine/execute/drivers';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { mysqlConnectionOptions } from '../../src/query-engine/execute/drivers/mysql-options';
import { availableEngines, freshWarehouse, runAll, type TestWarehouse } from '../support/warehouses';

/** 1..N: their sorted list is some 1.6 MB of GROUP_CONCAT text, more than MariaDB's default 1 MB. */
const N = 250_000;
/** PERCENTILE_CONT of 1..n: linear interpolation at position 1 + p * (n - 1). */
const expected = (p: number, n = N) => 1 + p * (n - 1);

/**
 * MySQL/MariaDB have no PERCENTILE_CONT: the dialect picks values out of a sorted GROUP_CONCAT, which the server
 * cuts at `group_concat_max_len`. The driver's sessions raise that limit, so large inputs still give exact values.
 */
describe.each(availableEngines(['mysql']))('%s percentile over a list larger than 1 MB', () => {
  let wh: TestWarehouse;
  let driver: WarehouseDriver;
  const dialect = new MysqlDialect();
  const sql = (p: number, groupBy = false) =>
    groupBy ? `SELECT g, ${dialect.percentile('n', p)} FROM nums GROUP BY g ORDER BY g` : `SELECT ${dialect.percentile('n', p)} FROM nums`;

  beforeAll(async () => {
    wh = await freshWarehouse('mysql');
    // 0..999 from three digit tables, crossed with 0..249 (no recursive CTE: MariaDB may cap its iterations).
    const digits =
      '(SELECT 0 d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4' +
      ' UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';
    await runAll(wh.driver({ writable: true }), [
      'CREATE TABLE nums (n INTEGER NOT NULL, g INTEGER NOT NULL)',
      `INSERT INTO nums (n, g) SELECT k + 1, (k + 1) % 2
         FROM (SELECT a.d + 10 * b.d + 100 * c.d + 1000 * e.d + 10000 * f.d + 100000 * h.d AS k
         FROM ${digits} a, ${digits} b, ${digits} c, ${digits} e, ${digits} f, ${digits} h) s WHERE k < ${N}`,
    ]);
    driver = wh.driver();
  }, 120_000);

  afterAll(async () => {
    await wh?.drop();
  });

  it('fills the table', async () => {
    expect((await driver.query('SELECT COUNT(*), MIN(n), MAX(n) FROM nums')).rows.map((r) => r.map(Number))).toEqual([[N, 1, N]]);
    const text = Number((await driver.query('SELECT SUM(LENGTH(n) + 1) FROM nums')).rows[0][0]);
    expect(text).toBeGreaterThan(1024 * 1024);
  });

  it('is NULL, not wrong, under the default 1 MB limit (what the driver sessions avoid)', async () => {
    const conn = await createConnection(mysqlConnectionOptions(wh.details as ServerDetails));
    try {
      await conn.query('SET group_concat_max_len = 1048576');
      const [rows] = await conn.query({ sql: sql(0.5), rowsAsArray: true });
      expect(rows).toEqual([[null]]);
    } finally {
      conn.destroy();
    }
  });

  it('computes the exact median and percentiles through the driver', async () => {
    const [[concatMax, packetMax]] = (await driver.query('SELECT @@group_concat_max_len, @@max_allowed_packet')).rows;
    expect(Number(concatMax)).toBe(Number(packetMax));
    expect(Number((await driver.query(sql(0.5))).rows[0][0])).toBe(expected(0.5));
    expect(Number((await driver.query(sql(0.9))).rows[0][0])).toBeCloseTo(expected(0.9), 6);
    expect(Number((await driver.query(sql(0))).rows[0][0])).toBe(1);
    expect(Number((await driver.query(sql(1))).rows[0][0])).toBe(N);
  }, 60_000);

  it('computes it per group', async () => {
    // Odd numbers 1..N-1 (g = 1) and even numbers 2..N (g = 0): their medians are the middle ones.
    const rows = (await driver.query(sql(0.5, true))).rows.map((r) => r.map(Number));
    expect(rows).toEqual([
      [0, N / 2 + 1],
      [1, N / 2],
    ]);
  }, 60_000);
});
