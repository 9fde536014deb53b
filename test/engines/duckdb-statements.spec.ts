import { DuckDBConnection } from '@duckdb/node-api';
import { QueryCancelledError, QueryError, StatementRejectedError, type WarehouseDriver } from '../../src/query-engine/execute/drivers';
import { KEPT_STATEMENTS } from '../../src/query-engine/execute/drivers/duckdb.driver';
import { freshWarehouse, type TestWarehouse } from '../support/warehouses';

/** DuckDB keeps each connection's prepared statements for the next run of the same SQL. */
describe('duckdb prepared statements', () => {
  let wh: TestWarehouse;
  let driver: WarehouseDriver;
  let prepares: jest.SpyInstance;
  const values = async (sql: string, params: unknown[] = [], readOnly = true) =>
    (await driver.query(sql, params as never, { readOnly })).rows;

  beforeAll(async () => {
    wh = await freshWarehouse('duckdb');
    // One connection, writable (DDL between runs): every run meets the statements of the ones before.
    driver = wh.driver({ writable: true, maxPoolSize: 1 });
    await driver.query('CREATE TABLE t (id INTEGER, label VARCHAR)');
    await driver.query("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  });
  beforeEach(() => {
    prepares = jest.spyOn(DuckDBConnection.prototype, 'extractStatements');
  });
  afterEach(() => prepares.mockRestore());
  afterAll(() => wh.drop());

  it('prepares a statement once and binds each run its own values', async () => {
    const sql = 'SELECT label FROM t WHERE id = ?';
    expect(await values(sql, [1])).toEqual([['one']]);
    expect(await values(sql, [2])).toEqual([['two']]);
    expect(await values(sql, [3])).toEqual([['three']]);
    expect(await values('SELECT count(*) FROM t')).toEqual([[3]]);
    expect(prepares).toHaveBeenCalledTimes(2);
  });

  it('prepares again after a run that failed, was cut short or was cancelled', async () => {
    const cast = 'SELECT CAST(? AS INTEGER) + 1';
    await expect(values(cast, ['abc'])).rejects.toThrow(QueryError);
    expect(await values(cast, ['41'])).toEqual([[42]]);
    const many = 'SELECT range FROM range(100000)';
    const stream = await driver.stream(many, [], { readOnly: true });
    for await (const batch of stream.batches) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    expect(await driver.query(many, [], { readOnly: true, maxRows: 10 })).toMatchObject({ rows: expect.arrayContaining([[9]]) });
    const slow = 'SELECT count(*) FROM range(10000000000)';
    const abort = new AbortController();
    const running = driver.query(slow, [], { readOnly: true, signal: abort.signal });
    setTimeout(() => abort.abort(), 100);
    await expect(running).rejects.toThrow(QueryCancelledError);
    expect(await values('SELECT count(*) FROM range(?)', [5])).toEqual([[5]]);
    // Each of the four needed a fresh statement; the last was new anyway.
    expect(prepares.mock.calls.map((c) => c[0])).toEqual([cast, cast, many, many, slow, 'SELECT count(*) FROM range(?)']);
  });

  it('checks a kept statement against the rules of each run', async () => {
    const insert = 'INSERT INTO t VALUES (?, ?)';
    await driver.query(insert, [4, 'four']);
    await expect(driver.query(insert, [5, 'five'], { readOnly: true })).rejects.toThrow(StatementRejectedError);
    expect(await values('SELECT count(*) FROM t')).toEqual([[4]]);
  });

  it('follows the table when it changes between runs', async () => {
    const all = 'SELECT * FROM t ORDER BY id LIMIT 1';
    expect(await values(all)).toEqual([[1, 'one']]);
    await driver.query('ALTER TABLE t ADD COLUMN size INTEGER DEFAULT 7');
    expect(await values(all)).toEqual([[1, 'one', 7]]);
  });

  it(`keeps at most ${KEPT_STATEMENTS} statements a connection, dropping the least recently used`, async () => {
    const nth = (i: number) => `SELECT ${i} AS n`;
    for (let i = 0; i <= KEPT_STATEMENTS; i++) expect(await values(nth(i))).toEqual([[i]]);
    prepares.mockClear();
    expect(await values(nth(KEPT_STATEMENTS))).toEqual([[KEPT_STATEMENTS]]);
    expect(prepares).not.toHaveBeenCalled();
    expect(await values(nth(0))).toEqual([[0]]);
    expect(prepares).toHaveBeenCalledTimes(1);
  });
});
