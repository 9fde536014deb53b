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

const UNIT_NAMES: Record<string, string> = {
  minute: 'minute',
  hour: 'hour',
  day: 'day',
  week: 'week',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

export function computeTrend(data: Dataset, settings: Settings): Trend {
  const { cols, rows } = data;
  const dimension = Math.max(
    0,
    cols.findIndex((c) => isTemporal(c)),
  );
  const metric = scalarColumn(
    cols,
    settings['scalar.field']
      ? settings
      : {
          'scalar.field':
            cols.find((c, i) => i !== dimension && c.source === 'aggregation')?.name ?? cols.find((_, i) => i !== dimension)?.name,
        },
  );
  const rowsWithValue = rows.filter((r) => r[metric] !== null && r[metric] !== undefined);
  const last = rowsWithValue[rowsWithValue.length - 1];
  const unit = cols[dimension]?.unit;
  const unitName = unit ? UNIT_NAMES[unit] : undefined;
  const value = last?.[metric] ?? null;
  const { previous, label } = comparisonTarget(rowsWithValue, metric, dimension, unit, unitName, settings);
  const v = Number(value);
  const pv = Number(previous);
  const has = previous !== null && previous !== undefined && Number.isFinite(v) && Number.isFinite(pv);
  const change = has && pv !== 0 ? (v - pv) / Math.abs(pv) : null;
  const direction = !has ? 'none' : v > pv ? 'up' : v < pv ? 'down' : 'flat';
  const flip = settings['scalar.switch_positive_negative'] === true;
  const good = direction === 'up' ? !flip : direction === 'down' ? flip : null;
  return {
    value,
    previous,
    change,
    direction,
    good,
    comparisonLabel: label,
    periodLabel: last ? formatDate(last[dimension], unit) : '',
    metric,
    dimension,
  };
}

interface Comparison {
  type?: string;
  value?: number;
  label?: string;
}

/**
 * What the last value is compared with: the first of `scalar.comparisons` (previousPeriod, previousValue,
 * periodsAgo with its value, staticNumber with its value and label), by default the previous period.
 */
function comparisonTarget(
  rows: unknown[][],
  metric: number,
  dimension: number,
  unit: string | undefined,
  unitName: string | undefined,
  settings: Settings,
): { previous: unknown; label: string } {
  const c = (Array.isArray(settings['scalar.comparisons']) ? (settings['scalar.comparisons'] as Comparison[])[0] : undefined) ?? {
    type: 'previousPeriod',
  };
  if (c.type === 'staticNumber') return { previous: c.value ?? null, label: `vs. ${c.label || 'target'}` };
  const back = c.type === 'periodsAgo' ? Math.max(1, Number(c.value) || 1) : 1;
  const prev = rows[rows.length - 1 - back];
  if (!prev) return { previous: null, label: back > 1 ? `No data ${back} ${unitName ?? 'period'}s ago` : 'No previous period' };
  if (c.type === 'previousValue') return { previous: prev[metric], label: 'vs. previous value' };
  if (back > 1)
    return { previous: prev[metric], label: unitName ? `vs. ${back} ${unitName}s ago` : `vs. ${formatDate(prev[dimension], unit)}` };
  return { previous: prev[metric], label: unitName ? `vs. previous ${unitName}` : `vs. ${formatDate(prev[dimension], unit)}` };
}

export function formatChange(change: number | null): string {
  if (change === null) return 'N/A';
  const abs = Math.abs(change);
  // Up to two decimals of a percent, none past 1000%: "10.61%", "50%", "1,250%".
  return formatNumber(abs, { number_style: 'percent', decimals: abs >= 10 ? 0 : undefined });
}
