import { clause, isClause, type Clause } from './mbql';
import { findColumn, kindOf, refTo, type Column, type ColumnKind } from './columns';

/**
 * Filters by column type, as Metabase's filter picker offers them, and the MBQL 5 clause each one writes. What the
 * server runs of them: src/query-engine/mbql/validate.ts FILTERS (legacy names), `time-interval` for relative dates.
 */
export interface FilterOperator {
  id: string;
  label: string;
  /** How many values it takes: 0, 1, 2 (between) or "many" (a comma-separated list for is / is not). */
  values: 0 | 1 | 2 | 'many';
}

const EMPTY: FilterOperator[] = [
  { id: 'is-empty', label: 'Is empty', values: 0 },
  { id: 'not-empty', label: 'Not empty', values: 0 },
];

export const OPERATORS: Record<ColumnKind, FilterOperator[]> = {
  text: [
    { id: '=', label: 'Is', values: 'many' },
    { id: '!=', label: 'Is not', values: 'many' },
    { id: 'contains', label: 'Contains', values: 1 },
    { id: 'does-not-contain', label: 'Does not contain', values: 1 },
    { id: 'starts-with', label: 'Starts with', values: 1 },
    { id: 'ends-with', label: 'Ends with', values: 1 },
    ...EMPTY,
  ],
  number: [
    { id: '=', label: 'Equal to', values: 'many' },
    { id: '!=', label: 'Not equal to', values: 'many' },
    { id: '>', label: 'Greater than', values: 1 },
    { id: '<', label: 'Less than', values: 1 },
    { id: '>=', label: 'Greater than or equal to', values: 1 },
    { id: '<=', label: 'Less than or equal to', values: 1 },
    { id: 'between', label: 'Between', values: 2 },
    ...EMPTY,
  ],
  date: [
    { id: 'previous', label: 'Previous', values: 1 },
    { id: 'next', label: 'Next', values: 1 },
    { id: 'current', label: 'Current', values: 0 },
    { id: 'on', label: 'On', values: 1 },
    { id: 'before', label: 'Before', values: 1 },
    { id: 'after', label: 'After', values: 1 },
    { id: 'between', label: 'Between', values: 2 },
    { id: 'exclude', label: 'Excluding', values: 'many' },
    ...EMPTY,
  ],
  boolean: [{ id: 'true', label: 'Is true', values: 0 }, { id: 'false', label: 'Is false', values: 0 }, ...EMPTY],
  other: EMPTY,
};

/** The units of a relative date filter (`time-interval`) and of the excluded parts of a date. */
export const INTERVAL_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export const EXCLUDE_UNITS: Record<string, { fn: string; label: string; values: string[] }> = {
  'day-of-week': {
    fn: 'get-day-of-week',
    label: 'Days of the week',
    values: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  },
  'month-of-year': {
    fn: 'get-month',
    label: 'Months of the year',
    values: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  },
  'quarter-of-year': { fn: 'get-quarter', label: 'Quarters of the year', values: ['Q1', 'Q2', 'Q3', 'Q4'] },
};

export interface FilterInput {
  column: Column;
  operator: string;
  /** As typed: numbers for number columns, ISO dates (yyyy-mm-dd) for dates, counts for previous/next. */
  values: string[];
  /** previous/next/current: the unit; exclude: a key of EXCLUDE_UNITS. */
  unit?: string;
}

/** The filter as an MBQL 5 clause; an Error naming what is missing when the input is incomplete. */
export function buildFilter(input: FilterInput): Clause {
  const { column, operator } = input;
  const kind = kindOf(column.baseType);
  const ref = refTo(column);
  const values = input.values.map((v) => v.trim()).filter((v) => v !== '');
  const value = (v: string): string | number => {
    if (kind !== 'number') return v;
    const n = Number(v);
    if (!Number.isFinite(n)) throw new Error(`"${v}" is not a number`);
    return n;
  };
  const need = (n: number) => {
    if (values.length < n) throw new Error(n === 1 ? 'Enter a value' : `Enter ${n} values`);
  };
  if (operator === 'is-empty' || operator === 'not-empty') {
    // Text has empty strings too (is-empty); other types only null (is-null), as Metabase writes them.
    const name = kind === 'text' ? operator : operator === 'is-empty' ? 'is-null' : 'not-null';
    return clause(name, {}, ref);
  }
  if (kind === 'boolean' && (operator === 'true' || operator === 'false')) return clause('=', {}, ref, operator === 'true');
  if (kind === 'date') return dateFilter(input, ref, values, need);
  if (['contains', 'does-not-contain', 'starts-with', 'ends-with'].includes(operator)) {
    need(1);
    return clause(operator, { 'case-sensitive': false }, ref, values[0]);
  }
  if (operator === '=' || operator === '!=') {
    need(1);
    return clause(operator, {}, ref, ...values.map(value));
  }
  if (operator === 'between') {
    need(2);
    return clause('between', {}, ref, value(values[0]), value(values[1]));
  }
  need(1);
  return clause(operator, {}, ref, value(values[0]));
}

function dateFilter(input: FilterInput, ref: Clause, values: string[], need: (n: number) => void): Clause {
  const unit = input.unit ?? 'day';
  const date = (v: string) => {
    if (!/^\d{4}-\d{2}-\d{2}/.test(v)) throw new Error(`"${v}" is not a date (yyyy-mm-dd)`);
    return v;
  };
  switch (input.operator) {
    case 'previous':
    case 'next': {
      need(1);
      const n = Number(values[0]);
      if (!Number.isInteger(n) || n < 1) throw new Error('Enter a whole number of units');
      return clause('time-interval', {}, ref, input.operator === 'previous' ? -n : n, unit);
    }
    case 'current':
      return clause('time-interval', {}, ref, 'current', unit);
    case 'on':
      need(1);
      return clause('=', {}, ref, date(values[0]));
    case 'before':
      need(1);
      return clause('<', {}, ref, date(values[0]));
    case 'after':
      need(1);
      return clause('>', {}, ref, date(values[0]));
    case 'between':
      need(2);
      return clause('between', {}, ref, date(values[0]), date(values[1]));
    case 'exclude': {
      const part = EXCLUDE_UNITS[unit];
      if (!part) throw new Error('Pick what to exclude');
      need(1);
      const numbers = values.map((v) => part.values.indexOf(v) + 1).filter((n) => n > 0);
      return clause('!=', {}, clause(part.fn, {}, ref), ...numbers);
    }
  }
  throw new Error(`Unknown filter ${input.operator}`);
}

const SYMBOL: Record<string, string> = {
  '=': 'is',
  '!=': 'is not',
  '>': 'is greater than',
  '<': 'is less than',
  '>=': 'is at least',
  '<=': 'is at most',
  between: 'is between',
  contains: 'contains',
  'does-not-contain': 'does not contain',
  'starts-with': 'starts with',
  'ends-with': 'ends with',
  'is-empty': 'is empty',
  'not-empty': 'is not empty',
  'is-null': 'is empty',
  'not-null': 'is not empty',
};

/** A filter in words ("Total is greater than 100", "Created At is in the previous 12 months"), for its pill. */
export function describeFilter(f: Clause, columns: Column[], label: (c: Column) => string): string {
  const [op, , ...args] = f;
  const name = (ref: unknown): string => {
    const col = findColumn(columns, ref);
    if (col) return label(col);
    if (isClause(ref)) {
      const inner = findColumn(columns, ref[2]);
      const part = Object.entries(EXCLUDE_UNITS).find(([, p]) => p.fn === ref[0]);
      if (inner && part) return `${label(inner)} (${part[1].label.toLowerCase()})`;
      return String(ref[2]);
    }
    return String(ref);
  };
  const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));
  if (op === 'time-interval') {
    const [ref, n, unit] = args as [unknown, number | string, string];
    if (n === 'current') return `${name(ref)} is in the current ${unit}`;
    const count = Math.abs(Number(n));
    return `${name(ref)} is in the ${Number(n) < 0 ? 'previous' : 'next'} ${count} ${unit}${count === 1 ? '' : 's'}`;
  }
  const inner = args[0];
  if (op === '!=' && isClause(inner) && inner[0].startsWith('get-')) {
    const part = Object.values(EXCLUDE_UNITS).find((p) => p.fn === inner[0]);
    const values = args.slice(1).map((n) => part?.values[Number(n) - 1] ?? show(n));
    return `${name(inner[2])} excludes ${values.join(', ')}`;
  }
  if (op === 'and' || op === 'or' || op === 'not') return `${op}(…)`;
  const words = SYMBOL[op] ?? op;
  const values = args.slice(1);
  if (op === 'between') return `${name(args[0])} ${words} ${show(values[0])} and ${show(values[1])}`;
  return `${name(args[0])} ${words}${values.length ? ' ' + values.map(show).join(', ') : ''}`.trim();
}

/** A filter of the question back into the form that edits it; null for one the form cannot show (an `or`, a custom one). */
export function filterInput(f: Clause, columns: Column[]): FilterInput | null {
  const [op, , ...args] = f;
  const inner = args[0];
  if (op === '!=' && isClause(inner) && inner[0].startsWith('get-')) {
    const entry = Object.entries(EXCLUDE_UNITS).find(([, p]) => p.fn === inner[0]);
    const column = findColumn(columns, inner[2]);
    if (!entry || !column) return null;
    const values = args.slice(1).map((n) => entry[1].values[Number(n) - 1] ?? '');
    return { column, operator: 'exclude', unit: entry[0], values };
  }
  const column = findColumn(columns, inner);
  if (!column) return null;
  const kind = kindOf(column.baseType);
  const rest = args.slice(1).map((v) => (v === null ? '' : String(v)));
  if (op === 'time-interval') {
    const [n, unit] = args.slice(1);
    if (n === 'current') return { column, operator: 'current', unit: String(unit), values: [] };
    return { column, operator: Number(n) < 0 ? 'previous' : 'next', unit: String(unit), values: [String(Math.abs(Number(n)))] };
  }
  if (op === 'is-null' || op === 'is-empty') return { column, operator: 'is-empty', values: [] };
  if (op === 'not-null' || op === 'not-empty') return { column, operator: 'not-empty', values: [] };
  if (kind === 'boolean' && op === '=' && typeof args[1] === 'boolean') return { column, operator: String(args[1]), values: [] };
  if (kind === 'date') {
    const byOp: Record<string, string> = { '=': 'on', '<': 'before', '>': 'after', between: 'between' };
    return byOp[op] ? { column, operator: byOp[op], values: rest.map((v) => v.slice(0, 10)) } : null;
  }
  const known = OPERATORS[kind].find((o) => o.id === op);
  if (!known) return null;
  return { column, operator: op, values: known.values === 'many' ? [rest.join(', ')] : rest };
}
