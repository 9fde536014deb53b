import { parseDateLiteral, truncateWall, wallText, type TruncationUnit } from '../compile/temporal';
import { relativeFilter } from './mbql5-relative-time';
import { isClause, isMap, isRef, kebab, kebabKeys, pick, preview, withTemporalUnit } from './mbql5-syntax';
import { TRUNCATION_UNITS } from './types';
import { InvalidQueryError, KNOWN_CLAUSES } from './validate';

/** What a stage's clauses may refer to: its expressions (by name) and aggregations (by uuid). */
export interface Scope {
  expressions: Set<string>;
  aggregations: Map<string, number>;
}

/** Field options the engine knows (types.ts FieldOptions); the rest (`lib/*`, `effective-type`, `ident`...) is metadata. */
const FIELD_OPTIONS = ['base-type', 'temporal-unit', 'join-alias', 'source-field', 'binning'];
/** An expression's type is its own: a reference keeps only the bucketing (MBQL 5 clients add `base-type` to every ref). */
const EXPRESSION_REF_OPTIONS = ['temporal-unit', 'binning'];
const STRING_FILTERS = new Set(['contains', 'does-not-contain', 'starts-with', 'ends-with']);
const TRUNCATION: ReadonlySet<string> = new Set(TRUNCATION_UNITS);
/**
 * `temporal-extract` units (Metabase lib, lib/schema/expression/temporal.cljc) that a legacy `get-*` function computes
 * exactly, as Metabase's own desugaring pairs them. The week-of-year units and `day-of-week-iso` have none the engine
 * compiles, so they stay unknown.
 */
const EXTRACT_FUNCTIONS: Record<string, string> = {
  'year-of-era': 'get-year',
  'quarter-of-year': 'get-quarter',
  'month-of-year': 'get-month',
  'day-of-month': 'get-day',
  'day-of-week': 'get-day-of-week',
  'hour-of-day': 'get-hour',
  'minute-of-hour': 'get-minute',
  'second-of-minute': 'get-second',
};

/**
 * Any clause, `[name, {options}, ...args]`, in its legacy form; literals as they are. Clause options move from second
 * position to where the legacy clause keeps them (or away: `lib/uuid` means nothing to the result); aggregation
 * references by uuid become indexes. Clauses that Metabase itself desugars become the legacy clause the engine runs
 * where that is exact (`in` -> `=`, `not-in` -> `!=`, `temporal-extract` -> `get-*`, `during` -> `=` on the column
 * bucketed by its unit, `relative-time-interval` without an offset -> `time-interval`, `absolute-datetime` -> its
 * instant as a date-time literal, `relative-datetime` compared with a column bucketed by its unit -> `time-interval`s
 * in mbql5-relative-time.ts); `offset` is the same clause in legacy MBQL; the rest is an unknown clause.
 */
export function clause(c: unknown, at: string, scope: Scope): unknown {
  if (c === null || typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean') return c;
  if (!isClause(c)) throw new InvalidQueryError(`expected a clause ["name", {options}, ...arguments] or a literal, got ${preview(c)}.`, at);
  const name = kebab(c[0]);
  if (!isMap(c[1]))
    throw new InvalidQueryError(
      `expected the options map second in ${preview(c)} (MBQL 5 clauses are ["name", {options}, ...arguments]).`,
      at,
    );
  const opts = kebabKeys(c[1]);
  const args = c.slice(2);
  const sub = (x: unknown) => clause(x, at, scope);
  switch (name) {
    case 'field': {
      const id = args[0];
      if (args.length !== 1 || !((Number.isInteger(id) && (id as number) > 0) || (typeof id === 'string' && id !== ''))) {
        throw new InvalidQueryError(`a field is ["field", {options}, <id or column name>], got ${preview(c)}.`, at);
      }
      const legacy = pick(opts, FIELD_OPTIONS);
      return ['field', id, Object.keys(legacy).length ? legacy : null];
    }
    case 'expression': {
      const ref = args[0];
      if (args.length !== 1 || typeof ref !== 'string' || !scope.expressions.has(ref)) {
        throw new InvalidQueryError(`no expression of this stage is named by ${preview(c)}.`, at);
      }
      const legacy = pick(opts, EXPRESSION_REF_OPTIONS);
      return Object.keys(legacy).length ? ['expression', ref, legacy] : ['expression', ref];
    }
    case 'aggregation': {
      const index = typeof args[0] === 'string' ? scope.aggregations.get(args[0]) : undefined;
      if (args.length !== 1 || index === undefined)
        throw new InvalidQueryError(`no aggregation of this stage has the "lib/uuid" of ${preview(c)}.`, at);
      return ['aggregation', index];
    }
    case 'segment':
    case 'metric':
      return [name, ...args];
    case 'absolute-datetime': {
      // Metabase compiles it to the instant truncated to its unit: that instant as a literal with a time (a literal
      // without one would stand for its whole day, compile/filters.ts).
      const [value, unit] = args;
      const parsed = typeof value === 'string' ? parseDateLiteral(value) : null;
      if (args.length !== 2 || !parsed || typeof unit !== 'string' || (unit !== 'default' && !TRUNCATION.has(unit))) throw unknown(c, at);
      return wallText(unit === 'default' ? parsed.wall : truncateWall(parsed.wall, unit as TruncationUnit));
    }
    case '=':
    case '!=':
    case 'between': {
      const relative = relativeFilter(name, args, at, sub);
      if (relative) return relative;
      break;
    }
    case 'offset':
      // The same clause in legacy MBQL (its options map kept, without the lib/ keys).
      if (args.length !== 2 || !Number.isInteger(args[1]) || args[1] === 0) {
        throw new InvalidQueryError(
          `expected ["offset", {options}, expression, n] with a whole number n other than 0, got ${preview(c)}.`,
          at,
        );
      }
      return ['offset', {}, sub(args[0]), args[1]];
    case 'value':
      if (args.length !== 1 || (args[0] !== null && typeof args[0] === 'object'))
        throw new InvalidQueryError(`a value is ["value", {options}, <literal>], got ${preview(c)}.`, at);
      return ['value', args[0]];
    case 'case':
    case 'if': {
      const [pairs, fallback] = args;
      if (!Array.isArray(pairs) || args.length > 2 || !pairs.every((p) => Array.isArray(p) && p.length === 2)) {
        throw new InvalidQueryError(`expected ["${name}", {options}, [[condition, value], ...], default?], got ${preview(c)}.`, at);
      }
      const converted = pairs.map((p: unknown[]) => [sub(p[0]), sub(p[1])]);
      return args.length === 2 ? [name, converted, { default: sub(fallback) }] : [name, converted];
    }
    case 'time-interval': {
      const [ref, n, unit] = args;
      const legacy = pick(opts, ['include-current']);
      return ['time-interval', sub(ref), n, unit, ...(Object.keys(legacy).length ? [legacy] : [])];
    }
    case 'get-day-of-week':
      // An MBQL 5 mode (`"iso"`) has no legacy form: the legacy function counts from the start-of-week setting.
      if (args.length !== 1) throw unknown(c, at);
      return [name, sub(args[0])];
    case 'in':
    case 'not-in':
      // Metabase desugars these to `=` / `!=` with the same arguments; legacy `=` and `!=` take several values.
      if (args.length < 2) throw new InvalidQueryError(`expected ["${name}", {options}, expression, value, ...], got ${preview(c)}.`, at);
      return [name === 'in' ? '=' : '!=', ...args.map(sub)];
    case 'temporal-extract': {
      const [ref, unit, mode] = args;
      const fn = typeof unit === 'string' ? EXTRACT_FUNCTIONS[unit] : undefined;
      if (!fn || args.length < 2 || (mode !== undefined && mode !== null) || args.length > 3) throw unknown(c, at);
      return [fn, sub(ref)];
    }
    case 'during': {
      // [col >= truncate(value, unit), col < that + 1 unit) on the unbucketed column: what legacy `=` does with a
      // date string on a column bucketed by `unit`.
      const [ref, value, unit] = args;
      const converted = sub(ref);
      if (args.length !== 3 || typeof value !== 'string' || typeof unit !== 'string' || !TRUNCATION.has(unit) || !isRef(converted))
        throw unknown(c, at);
      return ['=', withTemporalUnit(converted, unit), value];
    }
    case 'relative-time-interval': {
      // Metabase: [now(bucket) + value, now(bucket)) shifted by the offset (value < 0), or [now + 1, now + value + 1)
      // shifted (value > 0). Only a zero offset is a legacy time-interval; the engine has no shifted interval.
      const [ref, n, unit, offset, offsetUnit] = args;
      const converted = sub(ref);
      const exact =
        args.length === 5 &&
        Number.isInteger(n) &&
        n !== 0 &&
        offset === 0 &&
        typeof unit === 'string' &&
        TRUNCATION.has(unit) &&
        typeof offsetUnit === 'string' &&
        isRef(converted);
      if (!exact) throw unknown(c, at);
      return ['time-interval', withTemporalUnit(converted, undefined), n, unit];
    }
  }
  if (!KNOWN_CLAUSES.has(name)) throw unknown(c, at);
  const converted = [name, ...args.map(sub)];
  if (STRING_FILTERS.has(name) && opts['case-sensitive'] !== undefined) converted.push({ 'case-sensitive': opts['case-sensitive'] });
  return converted;
}

function unknown(c: unknown, at: string): InvalidQueryError {
  return new InvalidQueryError(`unknown clause ${preview(c)}.`, at);
}
