import type { Engine } from '../../query-engine/execute/drivers/driver';
import type { DatasetQuery, FieldRef, Filter } from '../../query-engine/mbql/types';
import { castText, escapeLike, LIKE_ESCAPE, quoteIdent, tableRef } from '../warehouse';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseField } from '../../schema/field.entity';

/**
 * The queries behind parameter values. Live values of fields without a stored value list are SQL: names only through
 * quoteIdent/tableRef, the search text only as a bound `?`, the row bound through the driver's maxRows. Values from a
 * card are an MBQL query over the card, so they go through the query processor (and its permission checks).
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
  const where = search
    ? `LOWER(${field.base_type === 'type/Text' ? c : castText(e, c)}) LIKE ? ESCAPE '${LIKE_ESCAPE}'`
    : `${c} IS NOT NULL`;
  return `SELECT DISTINCT ${c} FROM ${tableRef(e, table.schema, table.name)} WHERE ${where} ORDER BY 1`;
}

/** Where a card-sourced parameter takes its values: a column of the card's results, and optionally one for labels. */
export interface CardValuesSource {
  cardId: number;
  valueField: FieldRef;
  labelField?: FieldRef;
}

/**
 * The MBQL query of a card-sourced parameter's values (Metabase's `values-from-card-query`): the distinct non-null
 * values of the value field in the card's results (with their labels when there is a label field), one row over
 * `maxValues` so the caller can tell there are more. A search keeps the rows whose value or label contains the text,
 * any case; both are compared as text (`concat` casts non-text values), as the live field look-up does.
 */
export function cardValuesQuery(databaseId: number, source: CardValuesSource, maxValues: number, search?: string): DatasetQuery {
  const { valueField, labelField } = source;
  const contains = (ref: FieldRef) => ['contains', ['concat', ref], search, { 'case-sensitive': false }];
  const filters: unknown[] = [['not-null', valueField]];
  if (search !== undefined) filters.push(labelField ? ['or', contains(valueField), contains(labelField)] : contains(valueField));
  return {
    database: databaseId,
    type: 'query',
    query: {
      'source-table': `card__${source.cardId}`,
      breakout: labelField ? [valueField, labelField] : [valueField],
      filter: (filters.length === 1 ? filters[0] : ['and', ...filters]) as Filter,
      limit: maxValues + 1,
    },
  };
}
