import { Client } from 'pg';
import type { Engine, WarehouseDriver } from '../../src/query-engine/execute/drivers';
import { availableEngines, freshWarehouse, runAll, type TestWarehouse } from '../support/warehouses';

/**
 * A native statement runs in one round trip, and still cannot leave the pooled connection it ran on writable,
 * without its timeout, or with settings of its own for the next query. One connection in the pool, so the
 * next query is sure to get the same one.
 */
describe.each(availableEngines(['postgres', 'mysql']))('%s native statements on a pooled connection', (engine: Engine) => {
  let wh: TestWarehouse;
  let driver: WarehouseDriver;
  const readOnly = { readOnly: true, timeoutMs: 5_000, maxRows: 2_000 };

  beforeAll(async () => {
    wh = await freshWarehouse(engine);
    await runAll(wh.driver({ writable: true }), ['CREATE TABLE notes (id INTEGER PRIMARY KEY, body VARCHAR(20))']);
    driver = wh.driver({ writable: true, maxPoolSize: 1 });
  });

  afterAll(async () => {
    await wh?.drop();
  });

  if (engine === 'postgres') {
    it('answers in one round trip: BEGIN READ ONLY, SET LOCAL, the statement and ROLLBACK share one Sync', async () => {
      await driver.query('SELECT 1', [], readOnly); // the connection exists before counting
      const spy = jest.spyOn(Client.prototype, 'query');
      try {
        const result = await driver.query('SELECT count(*) AS n FROM notes WHERE id > ?', [0], readOnly);
        expect(result.rows).toEqual([[0]]);
        expect(spy).toHaveBeenCalledTimes(1);
        // Streamed too (POST /api/dataset streams): one pipeline, and the connection comes back idle.
        spy.mockClear();
        const stream = await driver.stream('SELECT count(*) AS n FROM notes WHERE id > ?', [0], readOnly);
        const rows: unknown[][] = [];
        for await (const batch of stream.batches) rows.push(...batch);
        await stream.close();
        expect(rows).toEqual([[0]]);
        expect(spy).toHaveBeenCalledTimes(1);
        const after = await driver.query("SELECT current_setting('transaction_read_only'), current_setting('statement_timeout')");
        expect(after.rows).toEqual([['off', '0']]);
      } finally {
        spy.mockRestore();
      }
    });

    it('ends the statement with its transaction: the next plain query is neither read-only nor limited', async () => {
      // The statement scanner refuses set_config() outright; the transaction is the layer under it.
      await expect(driver.query("SELECT set_config('statement_timeout', '1', false)", [], readOnly)).rejects.toThrow(/not allowed/);
      await driver.query('SELECT count(*) FROM notes', [], readOnly);
      const after = await driver.query("SELECT current_setting('statement_timeout'), current_setting('transaction_read_only')");
      expect(after.rows).toEqual([['0', 'off']]);
      const next = await driver.query(
        "SELECT current_setting('statement_timeout'), current_setting('transaction_read_only')",
        [],
        readOnly,
      );
      expect(next.rows).toEqual([['5s', 'on']]);
    });

    it('refuses a hidden write and stops at the timeout', async () => {
      const hidden = 'WITH x AS (SELECT 1 AS one) INSERT INTO notes (id, body) SELECT 1, ? FROM x';
      await expect(driver.query(hidden, ['w'], readOnly)).rejects.toThrow();
      await expect(driver.query('SELECT pg_sleep(2)', [], { ...readOnly, timeoutMs: 50 })).rejects.toThrow(/timed out|timeout|cancel/i);
    });
  } else {
    it('runs read-only with its limits inside the statement, leaving the session as it was', async () => {
      const inside = await driver.query('SELECT @@tx_read_only, @@max_statement_time, @@sql_select_limit', [], readOnly);
      expect(inside.rows).toEqual([[1, 5, 2000]]);
      await expect(driver.query('INSERT INTO notes VALUES (?, ?)', [1, 'w'], readOnly)).rejects.toThrow();
      const after = await driver.query('SELECT @@tx_read_only, @@max_statement_time, @@in_transaction');
      expect(after.rows).toEqual([[0, 0, 0]]);
    });
  }

  it('leaves the connection idle after a failed statement: the next write is not stuck in a read-only transaction', async () => {
    await expect(driver.query('SELECT * FROM no_such_table', [], readOnly)).rejects.toThrow();
    await driver.query('INSERT INTO notes (id, body) VALUES (?, ?)', [7, 'kept']);
    // Seen from another connection: the insert was committed, not held in a transaction left open.
    const other = wh.driver();
    expect((await other.query('SELECT body FROM notes WHERE id = ?', [7])).rows).toEqual([['kept']]);
  });

  it.each([
    ['no limits', {}],
    ['a row limit', { maxRows: 10 }],
    ['read-only', { readOnly: true }],
    ['read-only with every limit', readOnly],
  ])('rejects a failing statement with %s, streamed or not, and the connection serves the next one', async (_, opts) => {
    await expect(driver.query('SELECT * FROM no_such_table', [], opts)).rejects.toThrow(/no_such_table/);
    await expect(driver.stream('SELECT * FROM no_such_table', [], opts)).rejects.toThrow(/no_such_table/);
    expect((await driver.query('SELECT count(*) FROM notes', [], opts)).rows).toEqual([[expect.anything()]]);
  });
});
