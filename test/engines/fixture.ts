import type { BaseType, Engine } from '../../src/query-engine/execute/drivers';

/**
 * One schema on every engine: two tables joined by a foreign key, a view, and a column of every common type.
 * Engine differences are listed here and nowhere else:
 * - SQLite has no time-zone-aware timestamp, so `events.seen_tz` does not exist there.
 * - MySQL/MariaDB parse no offsets in literals, so its seen_tz values are written already in UTC (the session is UTC).
 */
const TYPES: Record<Engine, Record<string, string>> = {
  postgres: {
    int: 'INTEGER',
    big: 'BIGINT',
    dec: 'NUMERIC(10,2)',
    dbl: 'DOUBLE PRECISION',
    vc: 'VARCHAR(100)',
    text: 'TEXT',
    bool: 'BOOLEAN',
    date: 'DATE',
    ts: 'TIMESTAMP',
    tstz: 'TIMESTAMPTZ',
    time: 'TIME',
    json: 'JSONB',
  },
  mysql: {
    int: 'INT',
    big: 'BIGINT',
    dec: 'DECIMAL(10,2)',
    dbl: 'DOUBLE',
    vc: 'VARCHAR(100)',
    text: 'TEXT',
    bool: 'BOOLEAN',
    date: 'DATE',
    ts: 'DATETIME(6)',
    tstz: 'TIMESTAMP(6) NULL',
    time: 'TIME(6)',
    json: 'JSON',
  },
  sqlite: {
    int: 'INTEGER',
    big: 'BIGINT',
    dec: 'DECIMAL(10,2)',
    dbl: 'DOUBLE',
    vc: 'VARCHAR(100)',
    text: 'TEXT',
    bool: 'BOOLEAN',
    date: 'DATE',
    ts: 'TIMESTAMP',
    tstz: '',
    time: 'TIME',
    json: 'JSON',
  },
  duckdb: {
    int: 'INTEGER',
    big: 'BIGINT',
    dec: 'DECIMAL(10,2)',
    dbl: 'DOUBLE',
    vc: 'VARCHAR(100)',
    text: 'TEXT',
    bool: 'BOOLEAN',
    date: 'DATE',
    ts: 'TIMESTAMP',
    tstz: 'TIMESTAMPTZ',
    time: 'TIME',
    json: 'JSON',
  },
};

export const hasTimeZoneColumn = (engine: Engine) => engine !== 'sqlite';

export function fixtureStatements(engine: Engine): string[] {
  const t = TYPES[engine];
  const tz = hasTimeZoneColumn(engine);
  const utc = (withOffset: string, inUtc: string) => (engine === 'mysql' ? inUtc : withOffset);
  // MySQL reads a backslash in a literal as an escape; the others keep it. Either way the value is `O'Brien "q" \ x`.
  const tricky = engine === 'mysql' ? `'O''Brien "q" \\\\ x'` : `'O''Brien "q" \\ x'`;
  const rows = [
    [
      '1',
      '1',
      '9007199254740993',
      '12.34',
      '0.5',
      "'Zürich'",
      "'東京 🎉 naïve'",
      'TRUE',
      "'2024-01-02'",
      "'2024-01-02 03:04:05'",
      utc("'2024-01-02 03:04:05+02'", "'2024-01-02 01:04:05'"),
      "'03:04:05'",
      `'{"a": [1, 2]}'`,
    ],
    [
      '2',
      '2',
      '-5',
      '-0.5',
      '2.25',
      tricky,
      "''",
      'FALSE',
      "'1999-12-31'",
      "'1999-12-31 23:59:59.123456'",
      utc("'1999-12-31 23:59:59.5+00'", "'1999-12-31 23:59:59.5'"),
      "'23:59:59.5'",
      `'{"b": null}'`,
    ],
    ['3', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL', 'NULL'],
  ].map((r) => (tz ? r : [...r.slice(0, 10), ...r.slice(11)]));
  return [
    `CREATE TABLE cities (id ${t.int} PRIMARY KEY, name ${t.vc} NOT NULL, population ${t.big})`,
    `CREATE TABLE events (
      id ${t.int} PRIMARY KEY, city_id ${t.int}, big ${t.big}, amount ${t.dec}, ratio ${t.dbl},
      label ${t.vc}, note ${t.text}, active ${t.bool}, day ${t.date}, seen_at ${t.ts},${tz ? ` seen_tz ${t.tstz},` : ''}
      clock ${t.time}, doc ${t.json}, FOREIGN KEY (city_id) REFERENCES cities (id))`,
    'CREATE VIEW event_labels AS SELECT id, label FROM events',
    "INSERT INTO cities (id, name, population) VALUES (1, 'Zürich', 421878), (2, '東京', 13960000), (3, 'Nowhere', NULL)",
    `INSERT INTO events VALUES ${rows.map((r) => `(${r.join(', ')})`).join(', ')}`,
  ];
}

/** The same rows, as every driver must return them (SELECT * FROM events ORDER BY id). */
export function expectedEventRows(engine: Engine): unknown[][] {
  const rows: unknown[][] = [
    [
      1,
      1,
      '9007199254740993',
      12.34,
      0.5,
      'Zürich',
      '東京 🎉 naïve',
      true,
      '2024-01-02',
      '2024-01-02T03:04:05',
      '2024-01-02T01:04:05Z',
      '03:04:05',
      '{"a": [1, 2]}',
    ],
    [
      2,
      2,
      -5,
      -0.5,
      2.25,
      'O\'Brien "q" \\ x',
      '',
      false,
      '1999-12-31',
      '1999-12-31T23:59:59.123456',
      '1999-12-31T23:59:59.500Z',
      '23:59:59.500',
      '{"b": null}',
    ],
    [3, null, null, null, null, null, null, null, null, null, null, null, null],
  ];
  return hasTimeZoneColumn(engine) ? rows : rows.map((r) => [...r.slice(0, 10), ...r.slice(11)]);
}

export interface ExpectedColumn {
  name: string;
  baseType: BaseType;
  nullable: boolean;
  pk: boolean;
}

export function expectedEventColumns(engine: Engine): ExpectedColumn[] {
  const col = (name: string, baseType: BaseType, nullable = true, pk = false) => ({ name, baseType, nullable, pk });
  return [
    col('id', 'type/Integer', false, true),
    col('city_id', 'type/Integer'),
    col('big', 'type/BigInteger'),
    col('amount', 'type/Decimal'),
    col('ratio', 'type/Float'),
    col('label', 'type/Text'),
    col('note', 'type/Text'),
    col('active', 'type/Boolean'),
    col('day', 'type/Date'),
    col('seen_at', 'type/DateTime'),
    ...(hasTimeZoneColumn(engine) ? [col('seen_tz', 'type/DateTimeWithLocalTZ')] : []),
    col('clock', 'type/Time'),
    col('doc', 'type/JSON'),
  ];
}

/** Where each engine keeps its tables: Metabase's conventions. */
export const SCHEMA: Record<Engine, string | null> = { postgres: 'public', duckdb: 'main', mysql: null, sqlite: null };
