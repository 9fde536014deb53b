import type { CompiledColumn } from '../compile/contract';
import type { InnerQuery, OrderBy, Ref } from '../mbql/types';

/**
 * Metabase's pivot tables (its `qp.pivot`): the query runs once per combination of breakouts that the table needs
 * for its subtotals, and the results are stacked, each row tagged with `pivot-grouping`, the bitmask of the
 * breakouts aggregated away (bit i = breakout i left out; 0 for the detail rows), as Postgres numbers grouping sets.
 */

export class PivotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PivotError';
  }
}

/** `groupBitmask(3, [0])` is 6: breakouts 1 and 2 are left out. */
export function groupBitmask(numBreakouts: number, indices: readonly number[]): number {
  return indices.reduce((mask, i) => mask ^ (1 << i), (1 << numBreakouts) - 1);
}

/**
 * The breakout combinations (by index) to query, ordered by their bitmask. Without row or column breakouts (public
 * and embedded pivots, ad-hoc queries without options): every subset. Otherwise: all breakouts; each prefix of the
 * row breakouts with all column breakouts (subtotals); the row breakouts alone and their prefixes (row totals); the
 * column breakouts alone (grand totals row); nothing (the grand total).
 * `breakoutCombinations(3, [1, 2], [])` is `[[0, 1, 2], [1, 2], [1], []]`.
 */
export function breakoutCombinations(numBreakouts: number, pivotRows: readonly number[], pivotCols: readonly number[]): number[][] {
  for (const [name, list] of [['pivot-rows', pivotRows], ['pivot-cols', pivotCols]] as const) {
    for (const i of list) {
      if (!Number.isInteger(i) || i < 0 || i >= numBreakouts) {
        throw new PivotError(`Invalid ${name}: specified breakout at index ${String(i)}, but we only have ${numBreakouts} breakouts`);
      }
    }
  }
  const all = Array.from({ length: numBreakouts }, (_, i) => i);
  let candidates: number[][];
  if (pivotRows.length === 0 && pivotCols.length === 0) {
    candidates = Array.from({ length: 1 << numBreakouts }, (_, mask) => all.filter((i) => (mask & (1 << i)) !== 0));
  } else {
    const prefixes = Array.from({ length: Math.max(0, pivotRows.length - 1) }, (_, i) => pivotRows.slice(0, i + 1));
    candidates = [all, ...prefixes.map((p) => [...p, ...pivotCols]), [...pivotRows], ...prefixes, [...pivotCols], []];
  }
  const byMask = new Map<number, number[]>();
  for (const c of candidates) {
    const mask = groupBitmask(numBreakouts, c);
    if (!byMask.has(mask)) byMask.set(mask, [...new Set(c)].sort((a, b) => a - b));
  }
  return [...byMask.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

/**
 * The inner query of one combination: only those breakouts. Ordering is kept only where it names an aggregation
 * (ORDER BY a column outside GROUP BY would not run), as Metabase does.
 */
export function subQuery(query: InnerQuery, indices: readonly number[]): InnerQuery {
  const breakouts = query.breakout ?? [];
  const out: InnerQuery = { ...query, breakout: indices.map((i) => breakouts[i]) };
  if (out.breakout!.length === 0) delete out.breakout;
  const given = query['order-by'];
  if (given !== undefined && !Array.isArray(given)) return out; // malformed: left as is for validation to refuse
  const orderBy = (given ?? []).filter((o: OrderBy) => Array.isArray(o) && Array.isArray(o[1]) && o[1][0] === 'aggregation');
  if (orderBy.length > 0) out['order-by'] = orderBy;
  else delete out['order-by'];
  return out;
}

/** A ref without its options (temporal unit, binning), to match split settings with breakouts. */
function refKey(ref: Ref): string {
  return JSON.stringify([ref[0], ref[1], ref[0] === 'field' ? ((ref[2] as { 'join-alias'?: string } | null)?.['join-alias'] ?? null) : null]);
}

/**
 * Rows of one combination in the layout of the whole result: every breakout column (null where left out), then
 * `pivot-grouping` (Metabase adds it as the last breakout), then the aggregations.
 */
export function spreadRows(rows: unknown[][], numBreakouts: number, indices: readonly number[]): unknown[][] {
  const mask = groupBitmask(numBreakouts, indices);
  return rows.map((row) => {
    const out: unknown[] = new Array(numBreakouts).fill(null);
    indices.forEach((b, pos) => (out[b] = row[pos]));
    return [...out, mask, ...row.slice(indices.length)];
  });
}

/** The result columns: the breakouts, `pivot-grouping`, then the aggregations (and anything else the query returns). */
export function pivotColumns<C>(cols: readonly C[], numBreakouts: number, grouping: C): C[] {
  return [...cols.slice(0, numBreakouts), grouping, ...cols.slice(numBreakouts)];
}

export const PIVOT_GROUPING_COLUMN: CompiledColumn = {
  name: 'pivot-grouping',
  display_name: 'pivot-grouping',
  source: 'breakout',
  base_type: 'type/Integer',
  effective_type: 'type/Integer',
  semantic_type: null,
  field_ref: ['expression', 'pivot-grouping'],
  expression_name: 'pivot-grouping',
};

/**
 * Row and column breakouts by index, as Metabase finds them: the visualization setting `pivot_table.column_split`
 * (`{rows, columns}` of column names or legacy field refs) matched against the breakouts, else the query's own
 * `pivot_rows`/`pivot_cols`; with neither, both are empty (and every combination is queried).
 */
export function pivotOptions(
  breakouts: readonly Ref[],
  explicit: { rows?: unknown; cols?: unknown },
  split: unknown,
  columnNames: readonly string[],
): { rows: number[]; cols: number[] } {
  const asIndexes = (v: unknown, name: string): number[] | undefined => {
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) throw new PivotError(`Invalid ${name}: must be a list of breakout indexes.`);
    return v as number[];
  };
  if (split && typeof split === 'object' && !Array.isArray(split)) {
    const s = split as { rows?: unknown; columns?: unknown };
    const find = (x: unknown): number => {
      if (typeof x === 'string') return columnNames.indexOf(x);
      if (Array.isArray(x)) {
        const exact = breakouts.findIndex((b) => JSON.stringify(b) === JSON.stringify(x));
        return exact >= 0 ? exact : breakouts.findIndex((b) => refKey(b) === refKey(x as Ref));
      }
      return -1;
    };
    const list = (v: unknown) => (Array.isArray(v) ? v.map(find).filter((i) => i >= 0) : []);
    const r = list(s.rows);
    const c = list(s.columns);
    if (r.length || c.length) return { rows: r, cols: c };
  }
  return { rows: asIndexes(explicit.rows, 'pivot-rows') ?? [], cols: asIndexes(explicit.cols, 'pivot-cols') ?? [] };
}
