/**
 * Metabase's date filter strings (src/query-engine/parameters/date-params.ts reads them), as the date picker builds
 * and names them: a day `2024-01-31`, a range `2024-01-01~2024-01-31` (either end may be left open), a month
 * `2024-01`, a quarter `Q1-2024`, and relative windows (`past30days`, `next3months~`, `thisweek`, `today`).
 */
export type DateMode = 'specific' | 'range' | 'relative' | 'month' | 'quarter';

export const ALL_DATE_MODES: DateMode[] = ['relative', 'specific', 'range', 'month', 'quarter'];

export const MODE_LABELS: Record<DateMode, string> = {
  relative: 'Relative',
  specific: 'Date',
  range: 'Range',
  month: 'Month',
  quarter: 'Quarter',
};

/** The modes a filter or variable type offers: `date/single` a day, ..., `date/all-options` every kind. */
export function modesOf(type: string | undefined): DateMode[] {
  switch (type) {
    case 'date/single':
    case 'date':
      return ['specific'];
    case 'date/range':
      return ['range'];
    case 'date/relative':
      return ['relative'];
    case 'date/month-year':
      return ['month'];
    case 'date/quarter-year':
      return ['quarter'];
    default:
      return ALL_DATE_MODES;
  }
}

export const RELATIVE_PRESETS: Array<{ value: string; label: string }> = [
  { value: 'today', label: 'Today' },
  { value: 'yesterday', label: 'Yesterday' },
  { value: 'past7days', label: 'Past 7 days' },
  { value: 'past30days', label: 'Past 30 days' },
  { value: 'thisweek', label: 'This week' },
  { value: 'thismonth', label: 'This month' },
  { value: 'thisyear', label: 'This year' },
  { value: 'lastweek', label: 'Last week' },
  { value: 'lastmonth', label: 'Last month' },
  { value: 'lastyear', label: 'Last year' },
];

export const RELATIVE_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export type RelativeUnit = (typeof RELATIVE_UNITS)[number];

export interface RelativeWindow {
  direction: 'past' | 'next';
  n: number;
  unit: RelativeUnit;
  includeCurrent: boolean;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const QUARTER = /^Q([1-4])-(\d{4})$/;
const WINDOW = /^(past|next)(\d+)(day|week|month|quarter|year)s(~)?$/;

export function parseWindow(value: string): RelativeWindow | null {
  const m = WINDOW.exec(value);
  if (!m || Number(m[2]) < 1) return null;
  return { direction: m[1] as 'past' | 'next', n: Number(m[2]), unit: m[3] as RelativeUnit, includeCurrent: m[4] === '~' };
}

export function windowValue(w: RelativeWindow): string {
  return `${w.direction}${w.n}${w.unit}s${w.includeCurrent ? '~' : ''}`;
}

/** The mode a value was built in; null for none or a string the picker does not build (it is kept as typed). */
export function modeOf(value: string | null | undefined): DateMode | null {
  if (!value) return null;
  if (DAY.test(value)) return 'specific';
  if (value.includes('~') && !WINDOW.test(value)) {
    const [from, to] = value.split('~');
    return (from === '' || DAY.test(from)) && (to === '' || DAY.test(to)) && (from || to) ? 'range' : null;
  }
  if (MONTH.test(value)) return 'month';
  if (QUARTER.test(value)) return 'quarter';
  if (RELATIVE_PRESETS.some((p) => p.value === value) || parseWindow(value)) return 'relative';
  return null;
}

export function rangeValue(from: string | null, to: string | null): string | null {
  return from || to ? `${from ?? ''}~${to ?? ''}` : null;
}

export function rangeOf(value: string | null | undefined): { from: string | null; to: string | null } {
  if (modeOf(value) !== 'range') return { from: null, to: null };
  const [from, to] = value!.split('~');
  return { from: from || null, to: to || null };
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const MONTH_NAMES = MONTHS;

/** `2024-01-31` as `January 31, 2024`, without the time zone shifting the day. */
function dayLabel(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  return `${MONTHS[m - 1]?.slice(0, 3)} ${d}, ${y}`;
}

/** What the filter's button says for a value. */
export function describeDate(value: string | null | undefined): string {
  if (!value) return '';
  switch (modeOf(value)) {
    case 'specific':
      return dayLabel(value);
    case 'range': {
      const { from, to } = rangeOf(value);
      if (from && to) return `${dayLabel(from)} – ${dayLabel(to)}`;
      return from ? `On or after ${dayLabel(from)}` : `On or before ${dayLabel(to!)}`;
    }
    case 'month': {
      const [, y, m] = MONTH.exec(value)!;
      return `${MONTHS[Number(m) - 1]} ${y}`;
    }
    case 'quarter': {
      const [, q, y] = QUARTER.exec(value)!;
      return `Q${q} ${y}`;
    }
    case 'relative': {
      const preset = RELATIVE_PRESETS.find((p) => p.value === value);
      if (preset) return preset.label;
      const w = parseWindow(value)!;
      const unit = w.n === 1 ? w.unit : `${w.unit}s`;
      return `${w.direction === 'past' ? 'Past' : 'Next'} ${w.n} ${unit}${w.includeCurrent ? ', including the current one' : ''}`;
    }
    default:
      return value;
  }
}
