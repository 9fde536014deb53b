import { QueryError } from '../../src/query-engine/execute/drivers';
import { freshWarehouse, type TestWarehouse } from '../support/warehouses';

/** A DuckDB warehouse runs with the memory and thread caps the server was configured with. */
describe('duckdb memory and thread caps', () => {
  let wh: TestWarehouse;
  beforeAll(async () => {
    wh = await freshWarehouse('duckdb');
    const creator = wh.driver({ writable: true });
    await creator.query('CREATE TABLE t (x INTEGER)');
    await creator.close();
  });
  afterAll(() => wh.drop());

  it('applies memory_limit and threads to the instance, and the locked configuration keeps them', async () => {
    const driver = wh.driver({ memoryLimit: '64MB', threads: 1 });
    const { rows } = await driver.query("SELECT current_setting('memory_limit'), current_setting('threads')", [], { readOnly: true });
    expect(rows[0][0]).toMatch(/^(61\.0 MiB|64\.0 MB|6\d\.\d MiB)$/);
    expect(Number(rows[0][1])).toBe(1);
    await expect(driver.query("SET memory_limit = '8GB'", [], { readOnly: true })).rejects.toBeInstanceOf(Error);
  });

  it('fails a query that needs more memory than the cap with an error, not by taking the server down', async () => {
    const driver = wh.driver({ memoryLimit: '32MB', threads: 1 });
    // An aggregation whose hash table holds 6 million distinct string keys cannot fit in 32 MB.
    const hungry =
      "SELECT k, count(*) FROM (SELECT 'key-' || range::VARCHAR || repeat('x', 50) AS k FROM range(6000000))" +
      ' GROUP BY k ORDER BY 2 DESC LIMIT 1';
    const failure = await driver.query(hungry, [], { readOnly: true }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QueryError);
    expect((failure as Error).message).toMatch(/memory/i);
    expect((await driver.query('SELECT 42', [], { readOnly: true })).rows).toEqual([[42]]);
  });
});
