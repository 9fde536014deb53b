import { CompiledColumn, QueryCompileError } from '../compile/contract';
import type { InnerQuery, OrderBy, Ref } from '../mbql/types';
import type { FailedResults, QueryResults } from './results';

/**
 * Metabase's pivot tables (its `qp.pivot`): the query runs once per combination of breakouts that the table needs
 * for its subtotals, and the results are stacked, each row tagged with `pivot-grouping`, the bitmask of the
 * breakouts aggregated away (bit i = breakout i left out; 0 for the detail rows), as Postgres numbers grouping sets.
 */

/** A pivot the query cannot make (bad split indexes): the query's fault, so the failed `invalid-query` shape. */
export class PivotError extends QueryCompileError {
  constructor(message: string) {
    super(message, 'breakout');
    this.name = 'PivotError';
  }
}

/**
 * The most breakouts a pivot takes. Without a row/column split every subset of the breakouts is a subtotal
 * (2^n groupings: 256 at 8), and a pivot table is read by people: Metabase's are practical up to a handful of
 * breakouts (its editor offers a few rows and columns). More is refused up front with a 400, before any query runs.
 */
export const MAX_PIVOT_BREAKOUTS = 8;

export function tooManyBreakouts(n: number): string {
  return `A pivot table can have at most ${MAX_PIVOT_BREAKOUTS} breakouts; this query has ${n}.`;
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
  for (const [name, list] of [
    ['pivot-rows', pivotRows],
    ['pivot-cols', pivotCols],
  ] as const) {
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
    if (!byMask.has(mask))
      byMask.set(
        mask,
        [...new Set(c)].sort((a, b) => a - b),
      );
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
  return JSON.stringify([
    ref[0],
    ref[1],
    ref[0] === 'field' ? ((ref[2] as { 'join-alias'?: string } | null)?.['join-alias'] ?? null) : null,
  ]);
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

/** Runs one inner query of a pivot with at most `maxRows` rows; `log` only for the user's own query (one log entry per pivot). */
export type PivotQueryRunner = (
  query: InnerQuery,
  opts: { maxRows: number; log: boolean; groupingSets?: (columns: CompiledColumn[]) => number[][] },
) => Promise<QueryResults | FailedResults>;

export interface PivotRequest {
  /** `pivot_rows` / `pivot_cols` as sent, and `pivot_table.column_split` of the visualization settings. */
  rows?: unknown;
  cols?: unknown;
  split?: unknown;
  /** Rows of the whole pivot at most, across all its groupings (the row cap of the request). */
  maxRows: number;
  /** Whether the engine has GROUPING SETS (SqlCompiler.groupingSets). */
  groupingSets: boolean;
}

export interface PivotOutcome {
  /** The first (or only) run's result, for the shape of the answer; its rows are those of that run only. */
  head: QueryResults;
  /** Every grouping's rows in the layout of pivotColumns(), ordered by pivot-grouping: at most maxRows of them. */
  rows: unknown[][];
  truncated: boolean;
  /** Warehouse queries run. */
  queries: number;
}

/**
 * Whether the whole pivot can be one GROUPING SETS query with the same rows in the same order as one query per
 * grouping. Not with the query's own `limit`/`page` (it caps each grouping, not the whole), cumulative aggregations,
 * `offset` and metrics (windows over one grouping's breakouts), expression breakouts (their bound values would not match
 * GROUP BY), or nothing to aggregate.
 */
export function groupingSetsApply(query: InnerQuery): boolean {
  const breakouts = query.breakout;
  const aggregations = query.aggregation;
  if (!Array.isArray(breakouts) || breakouts.length === 0 || !Array.isArray(aggregations) || aggregations.length === 0) return false;
  if (query.limit !== undefined || query.page !== undefined) return false;
  if (breakouts.some((b) => !Array.isArray(b) || b[0] !== 'field')) return false;
  const ops = JSON.stringify(aggregations);
  return !['"cum-count"', '"cum-sum"', '"offset"', '"metric"'].some((op) => ops.includes(op));
}

/**
 * Runs a pivot: on engines with GROUPING SETS (and queries that allow it) as one query computing every grouping;
 * otherwise the user's query, then one query per further grouping its split needs, each capped by the rows still
 * allowed, so that at most `maxRows` rows are ever held (the rest: `truncated`). Throws PivotError past
 * MAX_PIVOT_BREAKOUTS; a bad split answers the failed shape.
 */
export async function runPivot(query: InnerQuery, request: PivotRequest, run: PivotQueryRunner): Promise<PivotOutcome | FailedResults> {
  const breakouts = Array.isArray(query.breakout) ? query.breakout : [];
  const n = breakouts.length;
  if (n > MAX_PIVOT_BREAKOUTS) throw new PivotError(tooManyBreakouts(n));
  const all = breakouts.map((_, i) => i);
  const combinations = (names: string[]) => {
    const { rows, cols } = pivotOptions(breakouts, { rows: request.rows, cols: request.cols }, request.split, names);
    return breakoutCombinations(n, rows, cols);
  };

  if (request.groupingSets && groupingSetsApply(query)) {
    const result = await run(subQuery(query, all), {
      maxRows: request.maxRows,
      log: true,
      groupingSets: (columns) => combinations(columns.map((c) => c.name)),
    });
    if (result.status !== 'completed') return result;
    // SELECT breakouts, aggregations, pivot-grouping: the grouping moves to after the breakouts.
    const rows = result.data.rows.map((r) => [...r.slice(0, n), r[r.length - 1], ...r.slice(n, -1)]);
    const head = { ...result, data: { ...result.data, cols: result.data.cols.slice(0, -1) } };
    return { head, rows, truncated: result.data.rows_truncated !== undefined, queries: 1 };
  }

  const full = await run(subQuery(query, all), { maxRows: request.maxRows, log: true });
  if (full.status !== 'completed') return full;
  let combos: number[][];
  try {
    combos = combinations(full.data.cols.map((c) => c.name));
  } catch (e) {
    if (e instanceof PivotError) return failedFrom(full, e.message);
    throw e;
  }
  const rows = spreadRows(full.data.rows, n, all);
  let truncated = full.data.rows_truncated !== undefined;
  let queries = 1;
  for (const combo of combos) {
    if (combo.length === n) continue;
    const budget = request.maxRows - rows.length;
    if (budget <= 0) {
      truncated = true;
      break;
    }
    const part = await run(subQuery(query, combo), { maxRows: budget, log: false });
    queries++;
    if (part.status !== 'completed') return part;
    if (part.data.rows_truncated !== undefined) truncated = true;
    for (const row of spreadRows(part.data.rows, n, combo)) rows.push(row);
  }
  return { head: full, rows, truncated, queries };
}

function failedFrom(from: QueryResults, message: string): FailedResults {
  return {
    status: 'failed',
    error: message,
    error_type: 'invalid-query',
    data: { rows: [], cols: [] },
    row_count: 0,
    context: from.context,
    json_query: from.json_query,
    database_id: from.database_id,
    started_at: from.started_at,
    running_time: from.running_time,
  };
}
