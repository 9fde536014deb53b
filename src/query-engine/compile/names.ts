import type { TemporalUnit } from '../mbql/types';

/** Metabase's result column name of an aggregation (`cum-sum` is `sum`, `distinct` is `count`, ...). */
export const AGGREGATION_NAMES: Record<string, string> = {
  count: 'count',
  'cum-count': 'count',
  sum: 'sum',
  'cum-sum': 'sum',
  avg: 'avg',
  distinct: 'count',
  min: 'min',
  max: 'max',
  stddev: 'stddev',
  var: 'var',
  median: 'median',
  percentile: 'percentile',
  share: 'share',
  'count-where': 'count-where',
  'sum-where': 'sum-where',
};

const DISPLAY: Record<string, (arg: string) => string> = {
  count: (a) => (a ? `Count of ${a}` : 'Count'),
  'cum-count': (a) => (a ? `Cumulative count of ${a}` : 'Cumulative count'),
  sum: (a) => `Sum of ${a}`,
  'cum-sum': (a) => `Cumulative sum of ${a}`,
  avg: (a) => `Average of ${a}`,
  distinct: (a) => `Distinct values of ${a}`,
  min: (a) => `Min of ${a}`,
  max: (a) => `Max of ${a}`,
  stddev: (a) => `Standard deviation of ${a}`,
  var: (a) => `Variance of ${a}`,
  median: (a) => `Median of ${a}`,
  percentile: (a) => `Percentile of ${a}`,
  share: () => 'Share of rows matching condition',
  'count-where': () => 'Count of rows matching condition',
  'sum-where': (a) => `Sum of ${a} matching condition`,
};

export function aggregationDisplayName(op: string, argDisplay: string): string {
  return (DISPLAY[op] ?? ((a: string) => `${op} ${a}`))(argDisplay);
}

const UNIT_DISPLAY: Record<string, string> = {
  minute: 'Minute',
  hour: 'Hour',
  day: 'Day',
  week: 'Week',
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
  'minute-of-hour': 'Minute of hour',
  'hour-of-day': 'Hour of day',
  'day-of-week': 'Day of week',
  'day-of-month': 'Day of month',
  'day-of-year': 'Day of year',
  'week-of-year': 'Week of year',
  'month-of-year': 'Month of year',
  'quarter-of-year': 'Quarter of year',
};

export function withUnitDisplay(display: string, unit: TemporalUnit | undefined): string {
  return unit && unit !== 'default' ? `${display}: ${UNIT_DISPLAY[unit]}` : display;
}

/** `Product ID` -> `Product` (the FK's display name as Metabase shows it before "→"). */
export function fkDisplayName(display: string): string {
  return display.replace(/\s+ID$/i, '') || display;
}

/** Unique output names: `sum`, `sum_2`, `sum_3` (case-insensitively, as engines compare aliases). */
export class NameSet {
  private readonly used = new Set<string>();

  unique(name: string): string {
    let candidate = name;
    for (let i = 2; this.used.has(candidate.toLowerCase()); i++) candidate = `${name}_${i}`;
    this.used.add(candidate.toLowerCase());
    return candidate;
  }
}
