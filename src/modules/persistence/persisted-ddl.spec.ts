import {
  bindValue,
  columnType,
  createSchemaSql,
  createTableSql,
  dropSchemaSql,
  firstPlaceSql,
  insertSql,
  rowsPerInsert,
  swapSql,
} from './persisted-ddl';
import { cacheSchemaName, modelTableName, uniqueColumnNames } from './persisted-names';

describe('persisted table names', () => {
  it('names the schema after a hash of the site id and the database, the table after the card', () => {
    const a = cacheSchemaName('site-a', 3);
    expect(a).toMatch(/^analytics_cache_[0-9a-f]{8}_3$/);
    expect(cacheSchemaName('site-a', 3)).toBe(a);
    expect(cacheSchemaName('site-b', 3)).not.toBe(a);
    expect(modelTableName(12)).toBe('model_12');
  });

  it('makes column names unique, case-insensitively', () => {
    expect(uniqueColumnNames(['id', 'ID', 'name', 'id', ''])).toEqual(['id', 'ID_2', 'name', 'id_3', 'column']);
  });
});

describe('persisted table DDL per dialect', () => {
  const cols = [
    { name: 'id', base_type: 'type/BigInteger' },
    { name: 'na"me`', base_type: 'type/Text' },
    { name: 'at', base_type: 'type/DateTimeWithLocalTZ' },
    { name: 'price', base_type: 'type/Decimal' },
  ];

  it('creates the table with types from the result metadata, identifiers quoted by the dialect', () => {
    expect(createTableSql('postgres', 's', 't', cols)).toBe(
      'CREATE TABLE "s"."t" ("id" BIGINT, "na""me`" TEXT, "at" TIMESTAMPTZ, "price" DOUBLE PRECISION)',
    );
    expect(createTableSql('mysql', 's', 't', cols)).toBe(
      'CREATE TABLE `s`.`t` (`id` BIGINT, `na"me``` LONGTEXT, `at` DATETIME(6), `price` DOUBLE)',
    );
    expect(createTableSql('duckdb', 's', 't', cols)).toBe(
      'CREATE TABLE "s"."t" ("id" BIGINT, "na""me`" TEXT, "at" TIMESTAMPTZ, "price" DOUBLE)',
    );
    expect(['Boolean', 'Date', 'Time', 'DateTime', 'JSON'].map((t) => columnType('mysql', `type/${t}`))).toEqual([
      'BOOLEAN',
      'DATE',
      'TIME',
      'DATETIME(6)',
      'LONGTEXT',
    ]);
  });

  it('makes the schema (a database on MySQL) and drops it with its tables', () => {
    expect(createSchemaSql('postgres', 'c')).toBe('CREATE SCHEMA IF NOT EXISTS "c"');
    expect(createSchemaSql('mysql', 'c')).toBe('CREATE DATABASE IF NOT EXISTS `c`');
    expect(dropSchemaSql('duckdb', 'c')).toBe('DROP SCHEMA IF EXISTS "c" CASCADE');
    expect(dropSchemaSql('mysql', 'c')).toBe('DROP DATABASE IF EXISTS `c`');
  });

  it('inserts with bound parameters only, in batches within the parameter limits', () => {
    expect(insertSql('postgres', 's', 't', cols.slice(0, 2), 2)).toBe('INSERT INTO "s"."t" ("id", "na""me`") VALUES (?, ?), (?, ?)');
    expect(rowsPerInsert(4)).toBe(1000);
    expect(rowsPerInsert(100)).toBe(300);
    expect(rowsPerInsert(100_000)).toBe(1);
  });

  it('swaps the new table in: in one transaction where DDL is transactional, one RENAME TABLE on MySQL', () => {
    expect(swapSql('postgres', 's', 'm_new', 'm', 'm_old')).toEqual({
      transaction: ['DROP TABLE IF EXISTS "s"."m"', 'ALTER TABLE "s"."m_new" RENAME TO "m"'],
      after: [],
    });
    expect(swapSql('mysql', 's', 'm_new', 'm', 'm_old')).toEqual({
      transaction: ['RENAME TABLE `s`.`m` TO `s`.`m_old`, `s`.`m_new` TO `s`.`m`'],
      after: ['DROP TABLE IF EXISTS `s`.`m_old`'],
    });
    expect(firstPlaceSql('mysql', 's', 'm_new', 'm')).toBe('RENAME TABLE `s`.`m_new` TO `s`.`m`');
  });

  it('binds values as each engine takes them', () => {
    const ts = { name: 'at', base_type: 'type/DateTime' };
    expect(bindValue('mysql', ts, '2024-01-02T03:04:05.000Z')).toBe('2024-01-02 03:04:05.000');
    expect(bindValue('mysql', ts, '2024-01-02T03:04:05')).toBe('2024-01-02 03:04:05');
    expect(bindValue('postgres', ts, '2024-01-02T03:04:05Z')).toBe('2024-01-02T03:04:05Z');
    expect(bindValue('duckdb', cols[1], { a: 1 })).toBe('{"a":1}');
    expect(bindValue('postgres', cols[0], 12n)).toBe('12');
    expect(bindValue('postgres', cols[0], undefined)).toBeNull();
  });
});
