import type { CompiledColumn } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect } from './dialect';
import type { SelectItem } from './level-scope';
import { hasParams } from './params';

/**
 * GROUP BY GROUPING SETS for a pivot (CompileOptions.groupingSets): the sets by breakout index, and the
 * `pivot-grouping` column, `GROUPING()` of the breakouts in reverse so that bit i stands for breakout i. A breakout
 * with bound values (`?` repeated as different parameters would not match its GROUP BY) or a cumulative
 * aggregation (a window over the breakouts of one set) cannot be grouped so: the pivot runs one query per set.
 */
export function groupingSets(
  d: Dialect,
  setsFor: (columns: CompiledColumn[]) => number[][],
  breakoutSql: string[],
  select: SelectItem[],
  columns: CompiledColumn[],
): { select: string; groupBy: string; column: CompiledColumn } {
  const unsupported = (why: string) => new QueryCompileError(`Cannot compute the pivot subtotals in one query: ${why}.`, 'breakout');
  if (!d.groupingSets) throw unsupported('this database has no GROUPING SETS');
  if (!breakoutSql.length) throw unsupported('the query has no breakouts');
  if (breakoutSql.some(hasParams)) throw unsupported('a breakout has bound values');
  if (select.some((s) => s.col.source === 'aggregation' && s.sql.includes(' OVER ('))) throw unsupported('a cumulative aggregation');
  const sets = setsFor(columns);
  for (const set of sets) {
    if (!Array.isArray(set) || set.some((i) => !Number.isInteger(i) || i < 0 || i >= breakoutSql.length))
      throw unsupported('an invalid grouping set');
  }
  const groupBy = `GROUPING SETS (${sets.map((set) => `(${set.map((i) => breakoutSql[i]).join(', ')})`).join(', ')})`;
  const grouping = `CAST(GROUPING(${[...breakoutSql].reverse().join(', ')}) AS INTEGER)`;
  return {
    select: grouping,
    groupBy,
    column: {
      name: 'pivot-grouping',
      display_name: 'pivot-grouping',
      source: 'breakout',
      base_type: 'type/Integer',
      effective_type: 'type/Integer',
      semantic_type: null,
      field_ref: ['expression', 'pivot-grouping'],
      expression_name: 'pivot-grouping',
    },
  };
}
