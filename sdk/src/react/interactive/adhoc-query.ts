/**
 * The edits InteractiveQuestion makes to a question's legacy MBQL query, as pure functions: filters added to its own,
 * and a summary (one aggregation, optionally grouped by one column) in place of its aggregation and breakout.
 */
export type FilterOp = '=' | '!=' | '>' | '<' | 'contains';
export interface AddedFilter {
  fieldId: number;
  op: FilterOp;
  value: string | number;
}
export type AggregationKind = 'count' | 'sum' | 'avg' | 'min' | 'max' | 'distinct';
export interface Summary {
  aggregation: AggregationKind;
  /** The column aggregated (all but `count`). */
  fieldId?: number;
  /** Group by this column; dates by month. */
  breakout?: { fieldId: number; temporal: boolean };
}

export interface DatasetQuery {
  database: number;
  type: string;
  query?: Record<string, unknown>;
  native?: unknown;
  [k: string]: unknown;
}

export const isEditable = (q: DatasetQuery | undefined): q is DatasetQuery & { query: Record<string, unknown> } =>
  !!q && q.type === 'query' && !!q.query;

const ref = (fieldId: number, opts: Record<string, unknown> | null = null) => ['field', fieldId, opts];

function clause(f: AddedFilter): unknown[] {
  if (f.op === 'contains') return ['contains', ref(f.fieldId), String(f.value), { 'case-sensitive': false }];
  return [f.op, ref(f.fieldId), f.value];
}

/** The question's query with `filters` added (and with its own filter, if it had one). */
export function applyEdits(base: DatasetQuery, filters: AddedFilter[], summary: Summary | null): DatasetQuery {
  if (!isEditable(base)) return base;
  const query: Record<string, unknown> = { ...base.query };
  if (filters.length) {
    const clauses = [...(query.filter ? [query.filter] : []), ...filters.map(clause)];
    query.filter = clauses.length === 1 ? clauses[0] : ['and', ...clauses];
  }
  if (summary) {
    const agg = summary.aggregation === 'count' || summary.fieldId === undefined ? ['count'] : [summary.aggregation, ref(summary.fieldId)];
    query.aggregation = [agg];
    if (summary.breakout) query.breakout = [ref(summary.breakout.fieldId, summary.breakout.temporal ? { 'temporal-unit': 'month' } : null)];
    else delete query.breakout;
    // The question's own ordering, columns and limit may name what the summary no longer has.
    delete query['order-by'];
    delete query.fields;
    delete query.limit;
  }
  return { ...base, query };
}

/** A readable line for an added filter, e.g. `Category is Gizmo`. */
export function describeFilter(f: AddedFilter, fieldName: (id: number) => string): string {
  const words: Record<FilterOp, string> = { '=': 'is', '!=': 'is not', '>': 'greater than', '<': 'less than', contains: 'contains' };
  return `${fieldName(f.fieldId)} ${words[f.op]} ${f.value}`;
}
