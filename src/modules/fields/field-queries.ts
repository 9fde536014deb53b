import type { Engine } from '../../query-engine/execute/drivers/driver';
import { castText, escapeLike, LIKE_ESCAPE, quoteIdent, tableRef } from '../warehouse';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseField } from '../../schema/field.entity';

/**
 * The SQL the field endpoints send to a warehouse. Names only ever reach the text through quoteIdent/tableRef and
 * values only ever as `?` parameters; row limits go through the driver's maxRows, so nothing is interpolated.
 */

/** Types COUNT(DISTINCT) cannot compare on some engines (Postgres json). */
const NOT_COMPARABLE = new Set(['type/JSON', 'type/Array', 'type/*']);

export function summarySql(e: Engine, table: WarehouseTable, field: WarehouseField): string {
  const c = quoteIdent(e, field.name);
  const distinct = NOT_COMPARABLE.has(field.base_type) ? 'NULL' : `COUNT(DISTINCT ${c})`;
  return `SELECT COUNT(*), ${distinct} FROM ${tableRef(e, table.schema, table.name)}`;
}

/** The escape character of our LIKE patterns; `!` needs no escaping in any engine's string literals (MySQL's `\` does). */

/** `value` as a LIKE prefix pattern: its `%`, `_` and `!` match themselves. */
export function startsWithPattern(value: string): string {
  return escapeLike(value) + '%';
}

/** Distinct (key, search) pairs whose search value starts with the parameter, case-insensitively, by search value. */
export function searchSql(e: Engine, table: WarehouseTable, key: WarehouseField, search: WarehouseField): string {
  const k = quoteIdent(e, key.name);
  const s = quoteIdent(e, search.name);
  const text = search.base_type === 'type/Text' ? s : castText(e, s);
  return (
    `SELECT DISTINCT ${k}, ${s} FROM ${tableRef(e, table.schema, table.name)} ` +
    `WHERE LOWER(${text}) LIKE LOWER(${textParam(e)}) ESCAPE '${LIKE_ESCAPE}' ORDER BY 2, 1`
  );
}

/** The remapped value of the row whose key equals the parameter. */
export function remappingSql(e: Engine, table: WarehouseTable, key: WarehouseField, remapped: WarehouseField): string {
  const k = quoteIdent(e, key.name);
  return `SELECT ${k}, ${quoteIdent(e, remapped.name)} FROM ${tableRef(e, table.schema, table.name)} WHERE ${k} = ?`;
}

/**
 * Postgres and DuckDB type a parameter from its context, so it is cast to text; on MySQL a cast would give it the
 * connection's collation with the column's priority and the comparison would fail on mixed collations.
 */
function textParam(e: Engine): string {
  return e === 'mysql' ? '?' : castText(e, '?');
}

const INTEGER = new Set(['type/Integer', 'type/BigInteger']);
const DECIMAL = new Set(['type/Float', 'type/Decimal']);

/**
 * A query-string value as the key column's type, so `?value=12` finds the integer 12 (Metabase parses numbers for
 * numeric fields). Null when a numeric field gets something that is not such a number: nothing can match it.
 * Integers beyond a double's precision stay decimal strings, which every engine compares as the integer.
 */
export function keyParam(field: WarehouseField, value: string): string | number | null {
  const v = value.trim();
  if (INTEGER.has(field.base_type)) {
    if (!/^[-+]?\d+$/.test(v)) return null;
    return Number.isSafeInteger(Number(v)) ? Number(v) : v.replace(/^\+/, '');
  }
  if (DECIMAL.has(field.base_type)) {
    if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(v)) return null;
    return Number.isFinite(Number(v)) ? Number(v) : null;
  }
  return value;
}
