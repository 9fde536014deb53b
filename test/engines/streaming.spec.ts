import {
  QueryCancelledError,
  QueryError,
  QueryTimeoutError,
  StatementRejectedError,
  type Engine,
  type RowStream,
  type WarehouseDriver,
} from '../../src/query-engine/execute/drivers';
import { setTimeout as sleep } from 'node:timers/promises';
import { STREAM_BATCH_ROWS } from '../../src/query-engine/execute/drivers/row-stream';
import { until } from '../support/until';
import { availableEngines, freshWarehouse, stillRunning, type TestWarehouse } from '../support/warehouses';

/** Ten digits, cross-joined: MariaDB materializes a recursive CTE before reading it, a join it produces row by row. */
const DIGITS =
  '(SELECT 0 AS d UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4' +
  ' UNION ALL SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)';

/**
 * 1..10^digits in one column, produced lazily by the database (ordered only when asked: ordering materializes).
 * The billion-row series is named MARKER, so that it can be looked for on the server.
 */
function series(engine: Engine, digits: number, ordered: boolean): string {
  const last = 10 ** digits;
  const name = digits === 9 ? MARKER : 'n';
  const order = ordered ? ` ORDER BY ${name}` : '';
  switch (engine) {
    case 'postgres':
      // In the select list generate_series yields row by row; in FROM it would fill a tuplestore first.
      return `SELECT generate_series(1, ${last}) AS ${name}${order}`;
    case 'duckdb':
      return `SELECT range + 1 AS ${name} FROM range(${last})${order}`;
    case 'sqlite':
      return `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${last}) SELECT x AS ${name} FROM c${order}`;
    case 'mysql': {
      const tables = Array.from({ length: digits }, (_, i) => `${DIGITS} d${i}`).join(', ');
      const value = Array.from({ length: digits }, (_, i) => `d${i}.d * ${10 ** i}`).join(' + ');
      return `SELECT ${value} + 1 AS ${name} FROM ${tables}${order}`;
    }
  }
}

/** STREAM_BATCH_ROWS where the driver chooses; DuckDB hands over its own chunks (2048 rows). */
const LARGEST_BATCH = Math.max(STREAM_BATCH_ROWS, 2048);

/** Split where it is looked for, so that the lookup does not match itself. */
const MARKER = 'wh_stream_marker';

const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => [from + i]);

async function readAll(stream: RowStream): Promise<unknown[][][]> {
  const batches: unknown[][][] = [];
  for await (const batch of stream.batches) batches.push(batch);
  return batches;
}

describe.each(availableEngines())('%s streaming', (engine: Engine) => {
  let wh: TestWarehouse;

  beforeAll(async () => {
    wh = await freshWarehouse(engine);
    await wh.driver({ writable: true }).query('CREATE TABLE t (x INTEGER)');
  });

  afterAll(async () => {
    await wh?.drop();
  });

  /** The pool is free again and serves the next query. */
  async function expectUsable(driver: WarehouseDriver): Promise<void> {
    expect(driver.poolInfo()).toMatchObject({ numBusyConnections: 0, numWaiting: 0 });
    expect((await driver.query(series(engine, 1, true), [], { maxRows: 2 })).rows).toEqual([[1], [2]]);
    expect(driver.poolInfo()).toMatchObject({ numBusyConnections: 0, numWaiting: 0 });
  }

  it('hands over a large result in several batches: the rows of query(), in order', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const sql = series(engine, 4, true);
    const stream = await driver.stream(sql, [], { readOnly: true });
    expect(stream.columns.map((c) => [c.name, c.baseType === 'type/Integer' || c.baseType === 'type/BigInteger'])).toEqual([['n', true]]);
    const batches = await readAll(stream);
    expect(batches.length).toBeGreaterThan(2);
    expect(batches.every((b) => b.length > 0 && b.length <= LARGEST_BATCH)).toBe(true);
    const rows = batches.flat();
    expect(rows).toEqual(numbers(1, 10_000));
    expect(rows).toEqual((await driver.query(sql, [], { readOnly: true })).rows);
    await stream.close();
    await expectUsable(driver);
  });

  it('stops at maxRows, exactly', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const rows = (await readAll(await driver.stream(series(engine, 4, true), [], { maxRows: 4500, readOnly: true }))).flat();
    expect(rows).toEqual(numbers(1, 4500));
    const one = (await readAll(await driver.stream(series(engine, 4, true), [], { maxRows: 1 }))).flat();
    expect(one).toEqual([[1]]);
    await expectUsable(driver);
  });

  it('gives the connection back when closed after the first batch', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const stream = await driver.stream(series(engine, 4, true), [], { readOnly: true, timeoutMs: 30_000 });
    const first = await stream.batches[Symbol.asyncIterator]().next();
    expect(first.value).toEqual(numbers(1, (first.value as unknown[]).length));
    expect(driver.poolInfo().numBusyConnections).toBe(1);
    await stream.close();
    await stream.close();
    await expectUsable(driver);
  });

  it('gives the connection back when closed while a batch is on its way', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const stream = await driver.stream(series(engine, 9, false), [], { readOnly: true });
    const batches = stream.batches[Symbol.asyncIterator]();
    await batches.next();
    const onItsWay = batches.next().catch(() => undefined);
    await stream.close();
    await onItsWay;
    await expectUsable(driver);
  });

  it('gives the connection back when the consumer breaks out of the loop', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const stream = await driver.stream(series(engine, 4, true), [], { readOnly: true });
    let seen = 0;
    for await (const batch of stream.batches) {
      seen += batch.length;
      if (seen > STREAM_BATCH_ROWS) break;
    }
    expect(seen).toBeGreaterThan(STREAM_BATCH_ROWS);
    await expectUsable(driver);
  });

  it('rejects the iteration with QueryCancelledError when the signal aborts mid-stream', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const ac = new AbortController();
    const stream = await driver.stream(series(engine, 9, false), [], { readOnly: true, signal: ac.signal });
    let seen = 0;
    const reading = (async () => {
      for await (const batch of stream.batches) {
        seen += batch.length;
        if (seen >= STREAM_BATCH_ROWS) ac.abort();
      }
    })();
    await expect(reading).rejects.toBeInstanceOf(QueryCancelledError);
    expect(seen).toBeGreaterThanOrEqual(STREAM_BATCH_ROWS);
    // Postgres and DuckDB stop the statement and keep the connection (no last-resort disconnect); MySQL's
    // KILL QUERY and SQLite's killed worker cost theirs by design.
    if (engine === 'postgres' || engine === 'duckdb') expect(driver.poolInfo()).toMatchObject({ numConnections: 1, numIdleConnections: 1 });
    await expectUsable(driver);
  });

  it('rejects stream() itself when the statement fails to start', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    await expect(driver.stream('SELECT * FROM no_such_table', [], { readOnly: true })).rejects.toBeInstanceOf(QueryError);
    await expect(driver.stream('SELECT nonsense FROM FROM')).rejects.toBeInstanceOf(QueryError);
    await expectUsable(driver);
  });

  it('refuses writes in read-only mode', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    await expect(driver.stream('INSERT INTO t VALUES (1)', [], { readOnly: true })).rejects.toBeInstanceOf(StatementRejectedError);
    // MariaDB has no data-modifying WITH; elsewhere the read-only transaction / handle / statement type refuses it.
    if (engine !== 'mysql') {
      const writable = wh.driver({ writable: true, maxPoolSize: 1 });
      const hidden = 'WITH y AS (SELECT 1 AS one) INSERT INTO t (x) SELECT 9 FROM y';
      await expect(writable.stream(hidden, [], { readOnly: true })).rejects.toBeInstanceOf(QueryError);
      expect(writable.poolInfo().numBusyConnections).toBe(0);
    }
    expect((await driver.query('SELECT count(*) AS n FROM t')).rows).toEqual([[0]]);
    await expectUsable(driver);
  });

  it('reads lazily: a billion-row series hands over its first batch and closes at once', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const started = Date.now();
    const stream = await driver.stream(series(engine, 9, false), [], { readOnly: true });
    const first = await stream.batches[Symbol.asyncIterator]().next();
    expect((first.value as unknown[]).length).toBeGreaterThan(0);
    if (engine === 'postgres' || engine === 'mysql') expect(await stillRunning(wh, ['wh_stream_', 'marker'])).toBe(1);
    // Long enough for the server to fill the socket and block writing to it.
    await sleep(300);
    await stream.close();
    // Producing the whole series would take minutes (and gigabytes).
    expect(Date.now() - started).toBeLessThan(30_000);
    // The statement stops on the server too, not only on our side.
    await until(async () => (await stillRunning(wh, ['wh_stream_', 'marker'])) === 0);
    await expectUsable(driver);
  });

  it('times out a stream that runs too long, across batches', async () => {
    const driver = wh.driver({ maxPoolSize: 1 });
    const started = Date.now();
    // On a busy machine the time may run out before the first batch (a SQLite worker starting): stream() rejects then.
    const reading = driver.stream(series(engine, 9, false), [], { readOnly: true, timeoutMs: 500 }).then(readAll);
    await expect(reading).rejects.toBeInstanceOf(QueryTimeoutError);
    expect(Date.now() - started).toBeLessThan(30_000);
    await until(async () => (await stillRunning(wh, ['wh_stream_', 'marker'])) === 0);
    await expectUsable(driver);
  });
});
