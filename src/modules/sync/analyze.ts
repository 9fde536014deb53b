import type { Engine, WarehouseDriver } from '../../query-engine/execute/drivers/driver';
import { isoFromSqlTimestamp } from '../../query-engine/execute/drivers/values';
import { Fingerprint, HasFieldValues, WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { looksSecret, semanticTypeFromValues } from './semantic-types';
import { quoteIdent, tableRef } from '../warehouse';

/**
 * No fingerprint or value query runs longer than this: a table too large (or a view too slow) to scan is
 * skipped with a warning instead of holding the sync, its lease and a connection for ever.
 */
export const SYNC_STATEMENT_TIMEOUT_MS = 5 * 60_000;

/** Fingerprints read a sample, not the whole table: enough to choose types and widgets, cheap on big tables. */
export const SAMPLE_ROWS = 10_000;
/** A text field with at most this many distinct values gets a value list (Metabase's auto-list threshold). */
export const AUTO_LIST_MAX_DISTINCT = 100;
export const FIELD_VALUES_MAX = 1000;
export const FIELD_VALUES_MAX_CHARS = 100_000;

const NUMERIC = new Set(['type/Integer', 'type/BigInteger', 'type/Float', 'type/Decimal']);
const TEMPORAL = new Set(['type/Date', 'type/DateTime', 'type/DateTimeWithLocalTZ']);
const NOT_COMPARABLE = new Set(['type/JSON', 'type/Array', 'type/*']);

export interface FieldAnalysis {
  fieldId: number;
  fingerprint: Fingerprint;
  semanticType?: string | null;
  hasFieldValues: HasFieldValues;
}

/** One query per table: counts, null share and ranges for every column of a sample. */
export async function fingerprintTable(
  driver: WarehouseDriver,
  table: WarehouseTable,
  fields: WarehouseField[],
): Promise<{ rowCount: number; fields: FieldAnalysis[] }> {
  const e = driver.engine;
  const usable = fields.filter((f) => !NOT_COMPARABLE.has(f.base_type));
  const selects = ['COUNT(*)'];
  for (const f of usable) {
    const c = quoteIdent(e, f.name);
    selects.push(`COUNT(DISTINCT ${c})`, `SUM(CASE WHEN ${c} IS NULL THEN 1 ELSE 0 END)`);
    if (NUMERIC.has(f.base_type)) selects.push(`MIN(${c})`, `MAX(${c})`, `AVG(${castDouble(e, c)})`);
    else if (TEMPORAL.has(f.base_type)) selects.push(`MIN(${c})`, `MAX(${c})`);
    else if (f.base_type === 'type/Text') selects.push(`AVG(${castDouble(e, textLength(e, c))})`);
  }
  const sql = `SELECT ${selects.join(', ')} FROM (SELECT * FROM ${tableRef(e, table.schema, table.name)} LIMIT ${SAMPLE_ROWS}) s`;
  const row = (await driver.query(sql, [], { readOnly: true, timeoutMs: SYNC_STATEMENT_TIMEOUT_MS })).rows[0] ?? [];
  const rowCount = Number(row[0] ?? 0);
  let i = 1;
  const analyses: FieldAnalysis[] = [];
  const samples = await sampleTextValues(
    driver,
    table,
    usable.filter((f) => f.base_type === 'type/Text' && !looksSecret(f.name)),
  );
  for (const f of usable) {
    const distinct = Number(row[i++] ?? 0);
    const nulls = Number(row[i++] ?? 0);
    const fingerprint: Fingerprint = { global: { 'distinct-count': distinct, 'nil%': rowCount ? nulls / rowCount : 0 } };
    if (NUMERIC.has(f.base_type)) fingerprint.type = { 'type/Number': { min: num(row[i++]), max: num(row[i++]), avg: num(row[i++]) } };
    else if (TEMPORAL.has(f.base_type))
      fingerprint.type = { 'type/DateTime': { earliest: temporal(row[i++], f.base_type), latest: temporal(row[i++], f.base_type) } };
    else if (f.base_type === 'type/Text') fingerprint.type = { 'type/Text': { 'average-length': num(row[i++]) } };
    const semanticType =
      f.semantic_type === null && !f.user_edited?.includes('semantic_type') && !looksSecret(f.name)
        ? semanticTypeFromValues(f.base_type, samples.get(f.id) ?? [], distinct, rowCount)
        : undefined;
    analyses.push({
      fieldId: f.id,
      fingerprint,
      semanticType,
      hasFieldValues: chooseHasFieldValues(f, distinct, semanticType ?? f.semantic_type),
    });
  }
  for (const f of fields.filter((x) => NOT_COMPARABLE.has(x.base_type))) {
    analyses.push({ fieldId: f.id, fingerprint: { global: { 'distinct-count': 0, 'nil%': 0 } }, hasFieldValues: 'none' });
  }
  return { rowCount, fields: analyses };
}

const LIST_SEMANTICS = new Set(['type/Category', 'type/State', 'type/Country', 'type/City', 'type/Source', 'type/Company']);
const NEVER_LIST = new Set([
  'type/PK',
  'type/FK',
  'type/Email',
  'type/URL',
  'type/Description',
  'type/SerializedJSON',
  'type/Name',
  'type/Title',
]);

/** `auto-list` for low-cardinality categories and booleans, `search` for other text, `none` for the rest. */
export function chooseHasFieldValues(f: WarehouseField, distinct: number, semantic: string | null): HasFieldValues {
  if (f.user_edited?.includes('has_field_values')) return f.has_field_values;
  if (looksSecret(f.name)) return 'none';
  if (f.base_type === 'type/Boolean') return 'auto-list';
  if (semantic && NEVER_LIST.has(semantic)) return f.base_type === 'type/Text' ? 'search' : 'none';
  if (f.base_type === 'type/Text' || (semantic && LIST_SEMANTICS.has(semantic))) {
    return distinct <= AUTO_LIST_MAX_DISTINCT ? 'auto-list' : f.base_type === 'type/Text' ? 'search' : 'none';
  }
  return 'none';
}

/** Distinct values of one field, sorted, at most FIELD_VALUES_MAX and FIELD_VALUES_MAX_CHARS in all. */
export async function readFieldValues(
  driver: WarehouseDriver,
  table: WarehouseTable,
  field: WarehouseField,
): Promise<{ values: unknown[]; hasMore: boolean }> {
  const e = driver.engine;
  const c = quoteIdent(e, field.name);
  const source = tableRef(e, table.schema, table.name);
  const sql = `SELECT DISTINCT ${c} FROM ${source} WHERE ${c} IS NOT NULL ORDER BY ${c} LIMIT ${FIELD_VALUES_MAX + 1}`;
  const rows = (await driver.query(sql, [], { readOnly: true, timeoutMs: SYNC_STATEMENT_TIMEOUT_MS })).rows;
  const values: unknown[] = [];
  let chars = 0;
  for (const [v] of rows.slice(0, FIELD_VALUES_MAX)) {
    chars += String(v).length;
    if (chars > FIELD_VALUES_MAX_CHARS) return { values, hasMore: true };
    values.push(v);
  }
  return { values, hasMore: rows.length > FIELD_VALUES_MAX };
}

async function sampleTextValues(driver: WarehouseDriver, table: WarehouseTable, fields: WarehouseField[]): Promise<Map<number, unknown[]>> {
  const out = new Map<number, unknown[]>();
  if (fields.length === 0) return out;
  const e = driver.engine;
  const sql = `SELECT ${fields.map((f) => quoteIdent(e, f.name)).join(', ')} FROM ${tableRef(e, table.schema, table.name)} LIMIT 200`;
  const rows = (await driver.query(sql, [], { readOnly: true, timeoutMs: SYNC_STATEMENT_TIMEOUT_MS })).rows;
  fields.forEach((f, i) =>
    out.set(
      f.id,
      rows.map((r) => r[i]),
    ),
  );
  return out;
}

/** Length in characters: MySQL's LENGTH counts bytes. */
function textLength(e: Engine, c: string): string {
  return e === 'mysql' ? `CHAR_LENGTH(${c})` : `LENGTH(${c})`;
}

/** Averages as floating point on every engine (integer AVG truncates on some). */
function castDouble(e: Engine, expr: string): string {
  switch (e) {
    case 'mysql':
      // A DOUBLE factor: `* 1.0` would make a DECIMAL, whose AVG keeps only four more decimals.
      return `(${expr}) * 1e0`;
    case 'sqlite':
      return `CAST(${expr} AS REAL)`;
    case 'duckdb':
      return `CAST(${expr} AS DOUBLE)`;
    case 'postgres':
      return `CAST(${expr} AS DOUBLE PRECISION)`;
  }
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** MIN/MAX of a SQLite column come back as stored text ('2024-01-02 03:04:05'); the fingerprint holds ISO-8601 on every engine. */
const temporal = (v: unknown, baseType: string): string | null =>
  typeof v === 'string' ? isoFromSqlTimestamp(v, baseType === 'type/DateTimeWithLocalTZ') : str(v);
