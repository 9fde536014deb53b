import type { ExpressionRef, FieldOptions, FieldRef, Filter, TemporalUnit } from '../mbql/types';
import { parseDateParam, type DateParamOptions, type DateRange, type ParsedDateParam } from './date-params';
import { ParameterError } from './errors';

/**
 * A parameter `{type, value}` applied to one field (or expression) becomes an MBQL filter clause.
 * The types are Metabase's (PARAMETER_TYPES). A null, empty string or empty list value means "no filter" (null).
 */
export const PARAMETER_TYPES = [
  'category',
  'id',
  'text',
  'number',
  'number/=',
  'number/!=',
  'number/between',
  'number/>=',
  'number/<=',
  'string/=',
  'string/!=',
  'string/contains',
  'string/does-not-contain',
  'string/starts-with',
  'string/ends-with',
  'date/single',
  'date/range',
  'date/relative',
  'date/month-year',
  'date/quarter-year',
  'date/all-options',
  'date',
  'location/city',
  'location/state',
  'location/zip_code',
  'location/country',
] as const;

export interface ToFilterOptions extends DateParamOptions {
  /** Base type of the target field, when known: numeric fields get numbers parsed from strings, booleans likewise. */
  baseType?: string | null;
  /**
   * Relative date strings (`past30days`, `thismonth`...): `time-interval` (default; what Metabase puts in MBQL,
   * evaluated by the compiler against the database's clock) or `range` (resolved here against `now`).
   */
  relativeDates?: 'time-interval' | 'range';
}

export type FilterTarget = FieldRef | ExpressionRef;

const NUMERIC_TYPES = new Set(['type/Integer', 'type/BigInteger', 'type/Float', 'type/Decimal', 'type/Number']);

/** Flattens a parameter value to its list of values; empty when there is nothing to filter on. */
export function parameterValues(value: unknown): unknown[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v) => v !== null && v !== undefined && v !== '');
}

export function hasValue(value: unknown): boolean {
  return parameterValues(value).length > 0;
}

const NUMBER_TEXT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** `"12"` -> 12, `" 1.5e3 "` -> 1500; anything not a finite number is a ParameterError. */
export function parseNumber(v: unknown, what = 'parameter'): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  // Trimmed first, and `\d+(\.\d*)?` rather than `\d+\.?\d*`: no two parts of the pattern compete for the same
  // characters, so a long user string cannot make it backtrack.
  if (typeof v === 'string' && NUMBER_TEXT.test(v.trim())) {
    const n = Number(v);
    if (Number.isFinite(n)) return n;
  }
  throw new ParameterError(`Invalid value for ${what}: ${JSON.stringify(v)} is not a number`);
}

function checkScalar(v: unknown, type: string): string | number | boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  throw new ParameterError(`Invalid value for a ${type} parameter: ${JSON.stringify(v)}`);
}

/** Values of a category-like parameter, typed after the field: numbers for numeric fields, booleans for boolean ones. */
function coerceForField(values: unknown[], type: string, baseType: string | null | undefined): Array<string | number | boolean> {
  return values.map((raw) => {
    const v = checkScalar(raw, type);
    if (baseType && NUMERIC_TYPES.has(baseType) && typeof v === 'string') return parseNumber(v, `a ${type} parameter`);
    if (baseType === 'type/Boolean' && typeof v === 'string') {
      if (/^true$/i.test(v)) return true;
      if (/^false$/i.test(v)) return false;
      throw new ParameterError(`Invalid value for a ${type} parameter: ${JSON.stringify(v)} is not a boolean`);
    }
    return v;
  });
}

/** The target with a temporal unit set (replacing any unit it had). */
export function withTemporalUnit(target: FilterTarget, unit: TemporalUnit): FilterTarget {
  if (target[0] === 'field') {
    const opts: FieldOptions = { ...(target[2] ?? {}), 'temporal-unit': unit };
    delete opts.binning;
    return ['field', target[1], opts];
  }
  return ['expression', target[1], { ...(target[2] ?? {}), 'temporal-unit': unit }];
}

/** The target without a temporal unit or binning (the raw column). */
function bare(target: FilterTarget): FilterTarget {
  const opts = { ...(target[2] ?? {}) };
  delete opts['temporal-unit'];
  delete opts.binning;
  if (target[0] === 'field') return ['field', target[1], Object.keys(opts).length ? opts : null];
  return Object.keys(opts).length ? ['expression', target[1], opts] : ['expression', target[1]];
}

function orAll(clauses: Filter[]): Filter {
  return clauses.length === 1 ? clauses[0] : ['or', ...clauses];
}

function andAll(clauses: Filter[]): Filter {
  return clauses.length === 1 ? clauses[0] : ['and', ...clauses];
}

/** The filter for one parsed date string. */
export function dateFilter(
  target: FilterTarget,
  parsed: ParsedDateParam,
  relativeDates: 'time-interval' | 'range' = 'time-interval',
): Filter {
  if (parsed.kind === 'exclude') return ['!=', withTemporalUnit(target, parsed.unit), ...parsed.values];
  if (parsed.relative && relativeDates === 'time-interval') {
    const { n, unit, includeCurrent } = parsed.relative;
    return ['time-interval', bare(target), n, unit, ...(includeCurrent ? [{ 'include-current': true }] : [])];
  }
  return rangeFilter(target, parsed);
}

/** `start <= field < end` compared at day precision (minute when the string named a time). */
function rangeFilter(target: FilterTarget, r: DateRange): Filter {
  const precise = r.unit === 'minute' || r.unit === 'hour';
  const field = withTemporalUnit(target, precise ? 'minute' : 'day');
  const parts: Filter[] = [];
  if (r.start !== undefined) parts.push(['>=', field, r.start]);
  if (r.end !== undefined) parts.push(['<', field, r.end]);
  return andAll(parts);
}

/**
 * The MBQL filter for `param` on `target`, or null when the parameter has no value. Unknown types and values of
 * the wrong shape throw ParameterError.
 */
export function parameterToFilter(
  param: { type: string; value: unknown },
  target: FilterTarget,
  opts: ToFilterOptions = {},
): Filter | null {
  const type = String(param.type ?? '');
  const values = parameterValues(param.value);
  if (values.length === 0) return null;
  const field = bare(target);
  const [family, op] = type.includes('/') ? [type.slice(0, type.indexOf('/')), type.slice(type.indexOf('/') + 1)] : [type, ''];

  switch (family) {
    case 'category':
    case 'id':
    case 'text':
    case 'location':
      if (family === 'location' && !['city', 'state', 'zip_code', 'country'].includes(op)) break;
      if (family !== 'location' && op) break;
      return ['=', field, ...coerceForField(values, type, opts.baseType)];

    case 'number': {
      if (op === 'between') {
        const raw = Array.isArray(param.value) ? param.value : [param.value];
        if (raw.length !== 2) throw new ParameterError(`A number/between parameter needs two values, got ${JSON.stringify(param.value)}`);
        const [lo, hi] = raw.map((v) => (v === null || v === undefined || v === '' ? null : parseNumber(v, 'a number/between parameter')));
        if (lo !== null && hi !== null) return ['between', field, lo, hi];
        if (lo !== null) return ['>=', field, lo];
        return ['<=', field, hi];
      }
      const nums = values.map((v) => parseNumber(v, `a ${type} parameter`));
      switch (op) {
        case '':
        case '=':
          return ['=', field, ...nums];
        case '!=':
          return ['!=', field, ...nums];
        case '>=':
        case '<=':
          if (nums.length !== 1) throw new ParameterError(`A ${type} parameter takes one value, got ${JSON.stringify(param.value)}`);
          return [op, field, nums[0]];
      }
      break;
    }

    case 'string': {
      const strs = values.map((v) => String(checkScalar(v, type)));
      switch (op) {
        case '=':
          return ['=', field, ...coerceForField(values, type, opts.baseType)];
        case '!=':
          return ['!=', field, ...coerceForField(values, type, opts.baseType)];
        case 'contains':
        case 'starts-with':
        case 'ends-with':
          return orAll(strs.map((s) => [op, field, s, { 'case-sensitive': false }]));
        case 'does-not-contain':
          return andAll(strs.map((s) => [op, field, s, { 'case-sensitive': false }]));
      }
      break;
    }

    case 'date': {
      if (op && !['single', 'range', 'relative', 'month-year', 'quarter-year', 'all-options'].includes(op)) break;
      const filters = values.map((v) => dateFilter(target, parseDateParam(v, opts), opts.relativeDates));
      return orAll(filters);
    }
  }
  throw new ParameterError(`Unknown parameter type "${type}"`);
}
