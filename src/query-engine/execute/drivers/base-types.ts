import type { BaseType, Engine } from './driver';

/**
 * Metabase base type of a database type name, as each engine names its types: Postgres `typname` (int4,
 * timestamptz, _int4), MySQL DATA_TYPE (INT, DATETIME; BIT for tinyint(1) as JDBC reports it), SQLite declared
 * types (affinity-style matching), DuckDB type strings (INTEGER, DECIMAL(10,2), TIMESTAMP WITH TIME ZONE).
 */
export function baseTypeFor(engine: Engine, databaseType: string | null | undefined): BaseType {
  const t = (databaseType ?? '').trim().toLowerCase();
  if (!t) return 'type/*';
  switch (engine) {
    case 'postgres':
      return postgresBaseType(t);
    case 'mysql':
      return mysqlBaseType(t);
    case 'sqlite':
      return sqliteBaseType(t);
    case 'duckdb':
      return duckdbBaseType(t);
  }
}

const COMMON: Record<string, BaseType> = {
  smallint: 'type/Integer',
  integer: 'type/Integer',
  int: 'type/Integer',
  bigint: 'type/BigInteger',
  real: 'type/Float',
  float: 'type/Float',
  double: 'type/Float',
  'double precision': 'type/Float',
  decimal: 'type/Decimal',
  numeric: 'type/Decimal',
  char: 'type/Text',
  character: 'type/Text',
  varchar: 'type/Text',
  'character varying': 'type/Text',
  text: 'type/Text',
  boolean: 'type/Boolean',
  bool: 'type/Boolean',
  date: 'type/Date',
  timestamp: 'type/DateTime',
  'timestamp without time zone': 'type/DateTime',
  'timestamp with time zone': 'type/DateTimeWithLocalTZ',
  timestamptz: 'type/DateTimeWithLocalTZ',
  time: 'type/Time',
  'time without time zone': 'type/Time',
  'time with time zone': 'type/TimeWithLocalTZ',
  timetz: 'type/TimeWithLocalTZ',
  json: 'type/JSON',
  uuid: 'type/UUID',
};

const POSTGRES: Record<string, BaseType> = {
  ...COMMON,
  int2: 'type/Integer',
  int4: 'type/Integer',
  serial: 'type/Integer',
  smallserial: 'type/Integer',
  oid: 'type/Integer',
  int8: 'type/BigInteger',
  bigserial: 'type/BigInteger',
  float4: 'type/Float',
  float8: 'type/Float',
  money: 'type/Decimal',
  bpchar: 'type/Text',
  name: 'type/Text',
  citext: 'type/Text',
  jsonb: 'type/JSON',
};

const MYSQL: Record<string, BaseType> = {
  ...COMMON,
  tinyint: 'type/Integer',
  mediumint: 'type/Integer',
  year: 'type/Integer',
  bit: 'type/Boolean',
  tinytext: 'type/Text',
  mediumtext: 'type/Text',
  longtext: 'type/Text',
  enum: 'type/Text',
  set: 'type/Text',
  timestamp: 'type/DateTimeWithLocalTZ',
  datetime: 'type/DateTime',
};

const DUCKDB: Record<string, BaseType> = {
  ...COMMON,
  tinyint: 'type/Integer',
  utinyint: 'type/Integer',
  usmallint: 'type/Integer',
  uinteger: 'type/Integer',
  int1: 'type/Integer',
  int2: 'type/Integer',
  int4: 'type/Integer',
  int8: 'type/BigInteger',
  long: 'type/BigInteger',
  ubigint: 'type/BigInteger',
  hugeint: 'type/BigInteger',
  uhugeint: 'type/BigInteger',
  float4: 'type/Float',
  float8: 'type/Float',
  string: 'type/Text',
  bpchar: 'type/Text',
  datetime: 'type/DateTime',
  timestamp_s: 'type/DateTime',
  timestamp_ms: 'type/DateTime',
  timestamp_ns: 'type/DateTime',
};

/** `numeric(10, 2)` -> `numeric`: each `(...)` removed (a loop: type names can carry user text, e.g. DuckDB STRUCT fields). */
function withoutModifiers(t: string): string {
  let out = '';
  let i = 0;
  while (i < t.length) {
    const open = t.indexOf('(', i);
    const close = open < 0 ? -1 : t.indexOf(')', open + 1);
    if (close < 0) {
      out += t.slice(i);
      break;
    }
    out += t.slice(i, open);
    i = close + 1;
  }
  return out.replace(/\s+/g, ' ').trim();
}

function postgresBaseType(t: string): BaseType {
  if (t.startsWith('_') || t.endsWith('[]')) return 'type/Array';
  return POSTGRES[withoutModifiers(t)] ?? 'type/*';
}

function mysqlBaseType(t: string): BaseType {
  return MYSQL[withoutModifiers(t).replace(/ unsigned| zerofill/g, '')] ?? 'type/*';
}

function duckdbBaseType(t: string): BaseType {
  if (/\[\d*\]$/.test(t) || t.startsWith('list') || t.startsWith('array')) return 'type/Array';
  return DUCKDB[withoutModifiers(t)] ?? 'type/*';
}

/** SQLite accepts any declared type; match the way its affinity rules (and Metabase's driver) read them. */
function sqliteBaseType(t: string): BaseType {
  const rules: [RegExp, BaseType][] = [
    [/^(bigint|int8|unsigned big int)/, 'type/BigInteger'],
    [/int/, 'type/Integer'],
    [/bool/, 'type/Boolean'],
    [/^(datetime|timestamp)/, 'type/DateTime'],
    [/^date/, 'type/Date'],
    [/^time/, 'type/Time'],
    [/json/, 'type/JSON'],
    [/uuid/, 'type/UUID'],
    [/char|clob|text|string/, 'type/Text'],
    [/real|floa|doub/, 'type/Float'],
    [/numeric|decimal/, 'type/Decimal'],
  ];
  return rules.find(([re]) => re.test(t))?.[1] ?? 'type/*';
}
