import type { Engine } from '../../query-engine/execute/drivers/driver';
import { castText, escapeLike, LIKE_ESCAPE, quoteIdent, tableRef } from '../warehouse/warehouse-sql';
import { WarehouseTable } from '../tables/table.entity';
import { WarehouseField } from '../fields/field.entity';

/**
 * The SQL of live parameter values (fields without a stored value list). Names only through quoteIdent/tableRef,
 * the search text only as a bound `?`, the row bound through the driver's maxRows.
 */

/** Types DISTINCT cannot compare on some engines (Postgres json): such fields list no values. */
export const NOT_COMPARABLE = new Set(['type/JSON', 'type/Array', 'type/*', 'type/Structured', 'type/SerializedJSON']);

/** `value` as a LIKE pattern matching texts that contain it, lower-cased; its `%`, `_` and `!` match themselves. */
export function containsPattern(value: string): string {
  return '%' + escapeLike(value.toLowerCase()) + '%';
}

/** Distinct non-null values of the field, ordered; with `search`, only those whose text contains the bound pattern. */
export function distinctValuesSql(e: Engine, table: WarehouseTable, field: WarehouseField, search: boolean): string {
  const c = quoteIdent(e, field.name);
  const where = search ? `LOWER(${field.base_type === 'type/Text' ? c : castText(e, c)}) LIKE ? ESCAPE '${LIKE_ESCAPE}'` : `${c} IS NOT NULL`;
  return `SELECT DISTINCT ${c} FROM ${tableRef(e, table.schema, table.name)} WHERE ${where} ORDER BY 1`;
}

