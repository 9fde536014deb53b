import type { Engine } from '../../query-engine/execute/drivers/driver';
import { quoteIdent } from '../warehouse';

/** The engines whose warehouses can hold persisted models. */
export type PersistEngine = Extract<Engine, 'postgres' | 'mysql' | 'duckdb'>;

export function canPersist(engine: Engine): engine is PersistEngine {
  return engine === 'postgres' || engine === 'mysql' || engine === 'duckdb';
}

export interface PersistColumn {
  name: string;
  base_type: string;
}

/** Bound parameters per INSERT statement at most (Postgres and MySQL allow 65,535). */
const MAX_PARAMS = 30_000;
const MAX_ROWS_PER_INSERT = 1_000;

/** The column type a result column of this base type is stored as. */
export function columnType(engine: PersistEngine, baseType: string): string {
  const t = baseType.replace(/^type\//, '');
  switch (t) {
    case 'Integer':
    case 'BigInteger':
      return 'BIGINT';
    case 'Float':
    case 'Decimal':
    case 'Number':
      return engine === 'postgres' ? 'DOUBLE PRECISION' : 'DOUBLE';
    case 'Boolean':
      return 'BOOLEAN';
    case 'Date':
      return 'DATE';
    case 'DateTime':
      return engine === 'mysql' ? 'DATETIME(6)' : 'TIMESTAMP';
    case 'DateTimeWithLocalTZ':
    case 'DateTimeWithTZ':
    case 'DateTimeWithZoneOffset':
    case 'DateTimeWithZoneID':
      return engine === 'mysql' ? 'DATETIME(6)' : 'TIMESTAMPTZ';
    case 'Time':
      return 'TIME';
    default:
      return engine === 'mysql' ? 'LONGTEXT' : 'TEXT';
  }
}

const ref = (engine: PersistEngine, schema: string, table: string) => `${quoteIdent(engine, schema)}.${quoteIdent(engine, table)}`;

/** MySQL's schemas are databases. */
export function createSchemaSql(engine: PersistEngine, schema: string): string {
  return engine === 'mysql'
    ? `CREATE DATABASE IF NOT EXISTS ${quoteIdent(engine, schema)}`
    : `CREATE SCHEMA IF NOT EXISTS ${quoteIdent(engine, schema)}`;
}

export function dropSchemaSql(engine: PersistEngine, schema: string): string {
  return engine === 'mysql'
    ? `DROP DATABASE IF EXISTS ${quoteIdent(engine, schema)}`
    : `DROP SCHEMA IF EXISTS ${quoteIdent(engine, schema)} CASCADE`;
}

export function createTableSql(engine: PersistEngine, schema: string, table: string, columns: readonly PersistColumn[]): string {
  const cols = columns.map((c) => `${quoteIdent(engine, c.name)} ${columnType(engine, c.base_type)}`);
  return `CREATE TABLE ${ref(engine, schema, table)} (${cols.join(', ')})`;
}

export function dropTableSql(engine: PersistEngine, schema: string, table: string): string {
  return `DROP TABLE IF EXISTS ${ref(engine, schema, table)}`;
}

/** How many rows one INSERT carries for this many columns (bounded by the engines' parameter limits). */
export function rowsPerInsert(columnCount: number): number {
  return Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMS / Math.max(1, columnCount))));
}

/** `INSERT INTO s.t (a, b) VALUES (?, ?), (?, ?)` for `rows` rows: every value a bound `?`. */
export function insertSql(engine: PersistEngine, schema: string, table: string, columns: readonly PersistColumn[], rows: number): string {
  const one = `(${columns.map(() => '?').join(', ')})`;
  const names = columns.map((c) => quoteIdent(engine, c.name)).join(', ');
  return `INSERT INTO ${ref(engine, schema, table)} (${names}) VALUES ${Array(rows).fill(one).join(', ')}`;
}

/**
 * The statements that put the freshly built table in place of the current one, run in one transaction where the
 * engine's DDL is transactional (Postgres, DuckDB): readers see the old table or the new one, never neither. MySQL
 * commits each DDL statement, but one RENAME TABLE of two pairs is atomic: the old table moves aside and the new one
 * takes its name at once; the old one is dropped after.
 */
export function swapSql(
  engine: PersistEngine,
  schema: string,
  building: string,
  target: string,
  old: string,
): { transaction: string[]; after: string[] } {
  if (engine === 'mysql') {
    return {
      transaction: [
        `RENAME TABLE ${ref(engine, schema, target)} TO ${ref(engine, schema, old)},` +
          ` ${ref(engine, schema, building)} TO ${ref(engine, schema, target)}`,
      ],
      after: [dropTableSql(engine, schema, old)],
    };
  }
  return {
    transaction: [
      dropTableSql(engine, schema, target),
      `ALTER TABLE ${ref(engine, schema, building)} RENAME TO ${quoteIdent(engine, target)}`,
    ],
    after: [],
  };
}

/** MySQL has nothing to swap with on the first build: a plain rename. */
export function firstPlaceSql(engine: PersistEngine, schema: string, building: string, target: string): string {
  return engine === 'mysql'
    ? `RENAME TABLE ${ref(engine, schema, building)} TO ${ref(engine, schema, target)}`
    : `ALTER TABLE ${ref(engine, schema, building)} RENAME TO ${quoteIdent(engine, target)}`;
}

/**
 * A value as the engine's column takes it. Results carry JSON-friendly values: timestamps as ISO text (which MySQL
 * DATETIME refuses with a zone: converted to UTC wall-clock), objects and arrays as JSON text.
 */
export function bindValue(engine: PersistEngine, column: PersistColumn, v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'object') return JSON.stringify(v);
  if (typeof v === 'string' && engine === 'mysql' && /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(v)) {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d.toISOString().replace('T', ' ').replace('Z', '');
  }
  if (typeof v === 'string' && engine === 'mysql' && column.base_type.startsWith('type/DateTime') && /^\d{4}-\d{2}-\d{2}T/.test(v))
    return v.replace('T', ' ');
  return v as string | number | boolean;
}
