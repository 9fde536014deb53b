import { formatDate } from '../format/date';
import { formatNumber } from '../format/number';
import { isTemporal } from '../format/column';
import type { Dataset, Settings } from '../types';
import { scalarColumn } from './scalar-value';

/**
 * The trend scalar ("smartscalar"): the last row's value of a metric broken out by a date, compared with the row
 * before it (Metabase's "vs. previous period"). `scalar.switch_positive_negative` makes a fall the good direction.
 */
export interface Trend {
  value: unknown;
  /** The row compared with, if any. */
  previous: unknown;
  /** (value - previous) / |previous|; null when there is no previous value or it is 0. */
  change: number | null;
  direction: 'up' | 'down' | 'flat' | 'none';
  /** Whether the change is good (green) under `scalar.switch_positive_negative`. */
  good: boolean | null;
  /** "vs. previous month", "vs. Q3 2024" ... */
  comparisonLabel: string;
  /** The date of the last row, e.g. "Nov 2024" */
  periodLabel: string;
  metric: number;
  dimension: number;
}

const UNIT_NAMES: Record<string, string> = { minute: 'minute', hour: 'hour', day: 'day', week: 'week', month: 'month', quarter: 'quarter', year: 'year' };

export function computeTrend(data: Dataset, settings: Settings): Trend {
  const { cols, rows } = data;
  const dimension = Math.max(0, cols.findIndex((c) => isTemporal(c)));
  const metric = scalarColumn(
    cols,
    settings['scalar.field'] ? settings : { 'scalar.field': cols.find((c, i) => i !== dimension && c.source === 'aggregation')?.name ?? cols.find((_, i) => i !== dimension)?.name },
  );
  const rowsWithValue = rows.filter((r) => r[metric] !== null && r[metric] !== undefined);
  const last = rowsWithValue[rowsWithValue.length - 1];
  const prev = rowsWithValue[rowsWithValue.length - 2];
  const unit = cols[dimension]?.unit;
  const value = last?.[metric] ?? null;
  const previous = prev?.[metric] ?? null;
  const v = Number(value);
  const pv = Number(previous);
  const change = prev && Number.isFinite(v) && Number.isFinite(pv) && pv !== 0 ? (v - pv) / Math.abs(pv) : null;
  const direction = !prev || !Number.isFinite(v) || !Number.isFinite(pv) ? 'none' : v > pv ? 'up' : v < pv ? 'down' : 'flat';
  const flip = settings['scalar.switch_positive_negative'] === true;
  const good = direction === 'up' ? !flip : direction === 'down' ? flip : null;
  const unitName = unit ? UNIT_NAMES[unit] : undefined;
  const comparisonLabel = !prev ? 'No previous period' : unitName ? `vs. previous ${unitName}` : `vs. ${formatDate(prev[dimension], unit)}`;
  return { value, previous, change, direction, good, comparisonLabel, periodLabel: last ? formatDate(last[dimension], unit) : '', metric, dimension };
}

export function formatChange(change: number | null): string {
  if (change === null) return 'N/A';
  const abs = Math.abs(change);
  // Up to two decimals of a percent, none past 1000%: "10.61%", "50%", "1,250%".
  return formatNumber(abs, { number_style: 'percent', decimals: abs >= 10 ? 0 : undefined });
}
