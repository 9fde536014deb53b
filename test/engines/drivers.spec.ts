import { QueryError, StatementRejectedError, type Engine, type WarehouseDriver } from '../../src/query-engine/execute/drivers';
import { createConnection } from 'mysql2/promise';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { mysqlConnectionOptions } from '../../src/query-engine/execute/drivers/mysql-options';
import { availableEngines, freshWarehouse, runAll, type TestWarehouse } from '../support/warehouses';
import { SCHEMA, expectedEventColumns, expectedEventRows, fixtureStatements } from './fixture';

const HOSTILE = ["'; DROP TABLE cities; --", '\\', "\\'", "''", '"', '`', '?', '$1', '%_', '*/ --', 'Zürich 東京 🎉'];

describe.each(availableEngines())('%s driver', (engine: Engine) => {
  let wh: TestWarehouse;
  let driver: WarehouseDriver;

  beforeAll(async () => {
    wh = await freshWarehouse(engine);
    await runAll(wh.driver({ writable: true }), fixtureStatements(engine));
    driver = wh.driver();
  });

  afterAll(async () => {
    await wh?.drop();
  });

  it('describes tables, views, columns, base types, primary and foreign keys', async () => {
    const { tables, foreignKeys } = await driver.describe();
    expect(tables.map((t) => [t.schema, t.name, t.kind])).toEqual([
      [SCHEMA[engine], 'cities', 'table'],
      [SCHEMA[engine], 'event_labels', 'view'],
      [SCHEMA[engine], 'events', 'table'],
    ]);
    const events = tables.find((t) => t.name === 'events')!;
    expect(events.columns.map(({ name, baseType, nullable, pk }) => ({ name, baseType, nullable, pk }))).toEqual(
      expectedEventColumns(engine),
    );
    expect(events.columns.map((c) => c.position)).toEqual(events.columns.map((_, i) => i));
    expect(events.columns.every((c) => c.databaseType.length > 0)).toBe(true);
    const cities = tables.find((t) => t.name === 'cities')!;
    expect(cities.columns.map((c) => [c.name, c.baseType, c.nullable, c.pk])).toEqual([
      ['id', 'type/Integer', false, true],
      ['name', 'type/Text', false, false],
      ['population', 'type/BigInteger', true, false],
    ]);
    const view = tables.find((t) => t.name === 'event_labels')!;
    expect(view.columns.map((c) => [c.name, c.baseType])).toEqual([
      ['id', 'type/Integer'],
      ['label', 'type/Text'],
    ]);
    expect(foreignKeys).toEqual([
      {
        schema: SCHEMA[engine],
        table: 'events',
        column: 'city_id',
        targetSchema: SCHEMA[engine],
        targetTable: 'cities',
        targetColumn: 'id',
      },
    ]);
  });

  it('returns every type in the shared value conventions', async () => {
    const result = await driver.query('SELECT * FROM events ORDER BY id');
    expect(result.rows).toEqual(expectedEventRows(engine));
    expect(result.columns.map((c) => c.name)).toEqual(expectedEventColumns(engine).map((c) => c.name));
    const base = Object.fromEntries(result.columns.map((c) => [c.name, c.baseType]));
    expect(base).toMatchObject({ id: 'type/Integer', big: 'type/BigInteger', ratio: 'type/Float', label: 'type/Text', day: 'type/Date' });
  });

  it('binds parameters of every kind', async () => {
    const byText = await driver.query('SELECT id FROM events WHERE label = ? OR id = ? ORDER BY id', ['Zürich', 2]);
    expect(byText.rows).toEqual([[1], [2]]);
    const byDate = await driver.query('SELECT id FROM events WHERE day = ?', ['2024-01-02']);
    expect(byDate.rows).toEqual([[1]]);
    const byNull = await driver.query('SELECT count(*) AS n FROM events WHERE label = ?', [null]);
    expect(byNull.rows).toEqual([[0]]);
    const unicode = await driver.query('SELECT id FROM cities WHERE name = ?', ['東京']);
    expect(unicode.rows).toEqual([[2]]);
  });

  it('treats hostile strings as data, never as SQL', async () => {
    for (const value of HOSTILE) {
      const echoed = await driver.query(engine === 'postgres' ? 'SELECT CAST(? AS TEXT) AS v' : 'SELECT ? AS v', [value]);
      expect(echoed.rows).toEqual([[value]]);
      const matched = await driver.query('SELECT id FROM events WHERE label = ?', [value]);
      expect(matched.rows).toEqual([]);
    }
    const tricky = await driver.query('SELECT id FROM events WHERE label = ?', ['O\'Brien "q" \\ x']);
    expect(tricky.rows).toEqual([[2]]);
    expect((await driver.query('SELECT count(*) FROM cities')).rows).toEqual([[3]]);
  });

  it('refuses a second statement, however it is hidden, and accepts semicolons in literals and comments', async () => {
    for (const sql of ['SELECT 1; DROP TABLE cities', 'SELECT 1;\nSELECT 2;', "SELECT ';'; DELETE FROM cities"]) {
      await expect(driver.query(sql)).rejects.toBeInstanceOf(StatementRejectedError);
    }
    expect((await driver.query("SELECT ';' AS x; ")).rows).toEqual([[';']]);
    expect((await driver.query('SELECT 1 AS x -- ; DROP TABLE cities\n')).rows).toEqual([[1]]);
    expect((await driver.query('SELECT 1 AS x /* ; DROP TABLE cities */')).rows).toEqual([[1]]);
    expect((await driver.query('SELECT count(*) FROM cities')).rows).toEqual([[3]]);
  });

  it('refuses writes in read-only mode, before and inside the database', async () => {
    await expect(driver.query("INSERT INTO cities VALUES (9, 'x', 1)", [], { readOnly: true })).rejects.toBeInstanceOf(
      StatementRejectedError,
    );
    // MariaDB has no data-modifying WITH, so this second layer is shown on the other three engines.
    if (engine !== 'mysql') {
      // WITH passes the keyword check; the read-only transaction / handle / statement type refuses the write.
      const hidden = 'WITH x AS (SELECT 1 AS one) INSERT INTO cities (id, name) SELECT 9, ? FROM x';
      const writable = wh.driver({ writable: true });
      await expect(writable.query(hidden, ['x'], { readOnly: true })).rejects.toBeInstanceOf(QueryError);
    }
    expect((await driver.query('SELECT count(*) FROM cities', [], { readOnly: true })).rows).toEqual([[3]]);
  });

  it('stops at maxRows', async () => {
    const result = await driver.query('SELECT id FROM events ORDER BY id', [], { maxRows: 2, readOnly: true });
    expect(result.rows).toEqual([[1], [2]]);
    expect((await driver.query('SELECT id FROM events ORDER BY id', [], { maxRows: 1 })).rows).toEqual([[1]]);
    // The connection that stopped early serves the next query in full.
    expect((await driver.query('SELECT id FROM events ORDER BY id')).rows).toHaveLength(3);
  });

  it('refuses statements that reach outside the database', async () => {
    const outside: Record<Engine, string> = {
      sqlite: "ATTACH DATABASE '/tmp/x.db' AS x",
      duckdb: "SELECT * FROM read_csv('/etc/passwd')",
      postgres: "COPY cities TO '/tmp/x.csv'",
      mysql: "SELECT * FROM cities INTO OUTFILE '/tmp/x.csv'",
    };
    await expect(driver.query(outside[engine])).rejects.toBeInstanceOf(QueryError);
    if (engine === 'sqlite') await expect(driver.query("SELECT load_extension('x')")).rejects.toBeInstanceOf(QueryError);
    if (engine === 'mysql') {
      // Past the statement policy, the server itself cannot ask us for a local file: the client flag is off.
      const conn = await createConnection(mysqlConnectionOptions(wh.details as ServerDetails));
      try {
        await expect(conn.query("LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE cities")).rejects.toThrow(/local infile/i);
      } finally {
        conn.destroy();
      }
    }
    if (engine === 'duckdb') {
      await expect(driver.query('INSTALL httpfs')).rejects.toBeInstanceOf(QueryError);
      await expect(driver.query('SET enable_external_access = true')).rejects.toBeInstanceOf(QueryError);
    }
  });

  if (engine === 'sqlite' || engine === 'duckdb') {
    it('opens the file read-only unless the server asks for a writable driver', async () => {
      await expect(driver.query("INSERT INTO cities VALUES (9, 'x', 1)")).rejects.toBeInstanceOf(QueryError);
      expect((await driver.query('SELECT count(*) FROM cities')).rows).toEqual([[3]]);
    });
  }

  it('reports database errors as QueryError with the database message', async () => {
    await expect(driver.query('SELECT nope FROM cities')).rejects.toBeInstanceOf(QueryError);
    await expect(driver.query('SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
  });
});
