import { clause, isMap, type Clause } from './mbql';
import { findColumn, kindOf, refTo, type Column } from './columns';

/** The aggregations offered (validate.ts AGGREGATIONS of the server), and whether each takes a column. */
export const AGGREGATIONS: Array<{ id: string; label: string; column: boolean; numeric?: boolean }> = [
  { id: 'count', label: 'Count of rows', column: false },
  { id: 'sum', label: 'Sum of', column: true, numeric: true },
  { id: 'avg', label: 'Average of', column: true, numeric: true },
  { id: 'distinct', label: 'Number of distinct values of', column: true },
  { id: 'min', label: 'Minimum of', column: true },
  { id: 'max', label: 'Maximum of', column: true },
  { id: 'median', label: 'Median of', column: true, numeric: true },
  { id: 'stddev', label: 'Standard deviation of', column: true, numeric: true },
  { id: 'var', label: 'Variance of', column: true, numeric: true },
  { id: 'cum-sum', label: 'Cumulative sum of', column: true, numeric: true },
  { id: 'cum-count', label: 'Cumulative count of rows', column: false },
];

/** Date buckets of a breakout (Metabase's `temporal-unit`). */
export const TEMPORAL_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year', 'day-of-week', 'month-of-year'] as const;
/** Number bins of a breakout (Metabase's `binning`): none, the engine's own choice, or a number of bins. */
export const BINNINGS: Record<string, Record<string, unknown> | undefined> = {
  none: undefined,
  auto: { strategy: 'default' },
  '10 bins': { strategy: 'num-bins', 'num-bins': 10 },
  '50 bins': { strategy: 'num-bins', 'num-bins': 50 },
  '100 bins': { strategy: 'num-bins', 'num-bins': 100 },
};

export function buildAggregation(id: string, column?: Column): Clause {
  const def = AGGREGATIONS.find((a) => a.id === id);
  if (!def) throw new Error(`Unknown aggregation ${id}`);
  if (!def.column) return clause(id, {});
  if (!column) throw new Error('Pick a column');
  return clause(id, {}, refTo(column));
}

/** A breakout on a column: dates by month and numbers binned automatically unless told otherwise, as Metabase does. */
export function buildBreakout(column: Column, options: { unit?: string; binning?: string } = {}): Clause {
  const kind = kindOf(column.baseType);
  if (kind === 'date') return refTo(column, { 'temporal-unit': options.unit ?? 'month' });
  const binning = options.binning ? BINNINGS[options.binning] : undefined;
  if (kind === 'number' && binning && !column.semanticType?.match(/PK|FK/)) return refTo(column, { binning });
  return refTo(column);
}

export function describeAggregation(a: Clause, columns: Column[], label: (c: Column) => string): string {
  const def = AGGREGATIONS.find((d) => d.id === a[0]);
  if (typeof a[1]['display-name'] === 'string') return a[1]['display-name'];
  if (!def) return a[0];
  if (!def.column) return def.label.replace(' of rows', '');
  const col = findColumn(columns, a[2]);
  return `${def.label} ${col ? label(col) : '?'}`;
}

export function describeBreakout(b: Clause, columns: Column[], label: (c: Column) => string): string {
  const col = findColumn(columns, b);
  const name = col ? label(col) : String(b[2]);
  const unit = b[1]['temporal-unit'];
  const binning = b[1].binning;
  if (typeof unit === 'string') return `${name}: ${unit.replace(/-/g, ' ')}`;
  if (isMap(binning)) return `${name}: ${binning.strategy === 'num-bins' ? `${String(binning['num-bins'])} bins` : 'auto binned'}`;
  return name;
}

/** The name of the binning option a breakout uses ("auto", "10 bins"...), "none" without one. */
export function binningName(b: Clause): string {
  const binning = b[1].binning;
  if (!isMap(binning)) return 'none';
  const found = Object.entries(BINNINGS).find(([, v]) => v && JSON.stringify(v) === JSON.stringify(binning));
  return found?.[0] ?? 'auto';
}
