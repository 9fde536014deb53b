import { parseDateLiteral, truncateWall, wallText, type TruncationUnit } from '../compile/temporal';
import { TRUNCATION_UNITS } from './types';
import type { DatasetQuery } from './types';
import { InvalidQueryError, KNOWN_CLAUSES, validateInner } from './validate';

/**
 * MBQL 5 (what Metabase 0.50+ clients send, COMPAT.md "dataset_query (MBQL 5)") turned into the legacy form that
 * normalize.ts and everything after it understand. The first stage is the source and each later stage wraps the
 * previous one as its `source-query`; clause options move from second position to where the legacy clause keeps
 * them (or away: `lib/uuid` means nothing to the result); expressions named by their options become the legacy map;
 * aggregation references by uuid become indexes. What cannot be converted is an InvalidQueryError naming the place
 * as the caller sent it (`stages[1].filters[0]`). Pure: the input is not modified.
 * Clauses that Metabase itself desugars become the legacy clause the engine runs where that is exact (`in` -> `=`,
 * `not-in` -> `!=`, `temporal-extract` -> `get-*`, `during` -> `=` on the column bucketed by its unit,
 * `relative-time-interval` without an offset -> `time-interval`, `absolute-datetime` -> its instant as a date-time
 * literal, `relative-datetime` compared with a column bucketed by its unit -> `time-interval`s); `offset` is the
 * same clause in legacy MBQL; the rest is an unknown clause.
 */
export const MBQL5_QUERY = 'mbql/query';

export function isMbql5Query(q: unknown): q is Record<string, unknown> & { 'lib/type': typeof MBQL5_QUERY } {
  return isMap(q) && q['lib/type'] === MBQL5_QUERY;
}

/** A converted query, and where each legacy place came from (to name an error of a later check as it was sent). */
export interface ConvertedQuery {
  query: Record<string, unknown>;
  /** [legacy path prefix, MBQL 5 path prefix], longest legacy prefix first. */
  places: Array<[string, string]>;
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
  'year-of-era': 'get-year', 'quarter-of-year': 'get-quarter', 'month-of-year': 'get-month', 'day-of-month': 'get-day',
  'day-of-week': 'get-day-of-week', 'hour-of-day': 'get-hour', 'minute-of-hour': 'get-minute', 'second-of-minute': 'get-second',
};

export function mbql5ToLegacy(raw: Record<string, unknown>): ConvertedQuery {
  const places: Array<[string, string]> = [];
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!isLibKey(k) && k !== 'stages') out[k] = v;
  const stages = raw.stages;
  if (!Array.isArray(stages) || stages.length === 0) throw new InvalidQueryError('must be a non-empty list of stages.', 'stages');
  const first = stageMap(stages[0], 'stages[0]');
  if (isNativeStage(first)) {
    if (stages.length > 1) {
      throw new InvalidQueryError('a stage over a native stage is not supported: save the SQL as a question and use it as "source-card".', 'stages[1]');
    }
    out.type = 'native';
    out.native = nativeOf(first, 'stages[0]');
    places.push(['native', 'stages[0]']);
  } else {
    out.type = 'query';
    out.query = chain(stages, 'stages', 'query', places);
  }
  places.sort((a, b) => b[0].length - a[0].length);
  return { query: out, places };
}

/**
 * Checks the structure of a converted query once normalized (validate.ts), naming a problem's place as it was sent:
 * later checks would name the legacy place (`query.source-query.filter`), which the caller never wrote.
 */
export function checkConverted(q: DatasetQuery, places: ConvertedQuery['places']): void {
  if (q.type !== 'query' || !q.query) return;
  try {
    validateInner(q.query, 'query');
  } catch (e) {
    if (!(e instanceof InvalidQueryError)) throw e;
    const reason = e.message.slice(`Invalid query: ${e.clause}: `.length);
    throw new InvalidQueryError(reason, placeAsSent(e.clause, places));
  }
}

/** `path` of an InvalidQueryError about the converted query, as the MBQL 5 caller knows it. */
export function placeAsSent(path: string, places: ConvertedQuery['places']): string {
  for (const [legacy, sent] of places) {
    if (path === legacy) return sent;
    if (path.startsWith(legacy) && (path[legacy.length] === '.' || path[legacy.length] === '[')) return sent + path.slice(legacy.length);
  }
  return path;
}

/** Stages (of a query or a join) nested inside out: the last stage is the outermost inner query. */
function chain(stages: unknown[], at: string, legacyAt: string, places: ConvertedQuery['places']): Record<string, unknown> {
  let inner: Record<string, unknown> | undefined;
  stages.forEach((s, i) => {
    const path = `${at}[${i}]`;
    const stage = stageMap(s, path);
    if (isNativeStage(stage)) throw new InvalidQueryError('a native stage can only be the first and only stage.', path);
    const legacyPath = legacyAt + '.source-query'.repeat(stages.length - 1 - i);
    places.push([legacyPath, path]);
    const converted = convertStage(stage, path, legacyPath, i === 0, places);
    inner = inner ? { ...converted, 'source-query': inner } : converted;
  });
  return inner!;
}

/** What a stage's clauses may refer to: its expressions (by name) and aggregations (by uuid). */
interface Scope {
  expressions: Set<string>;
  aggregations: Map<string, number>;
}

function convertStage(raw: Record<string, unknown>, at: string, legacyAt: string, first: boolean, places: ConvertedQuery['places']): Record<string, unknown> {
  const stage = kebabKeys(raw);
  const out: Record<string, unknown> = {};
  if (stage['source-table'] !== undefined || stage['source-card'] !== undefined) {
    if (!first) throw new InvalidQueryError('only the first stage has a source ("source-table" or "source-card").', at);
    if (stage['source-card'] !== undefined) {
      const card = stage['source-card'];
      if (!(Number.isInteger(card) && (card as number) > 0)) throw new InvalidQueryError(`must be the id of a card, not ${preview(card)}.`, `${at}.source-card`);
      out['source-table'] = `card__${card}`;
      places.push([`${legacyAt}.source-table`, `${at}.source-card`]);
    } else {
      out['source-table'] = stage['source-table'];
    }
  }
  const scope: Scope = { expressions: new Set(), aggregations: new Map() };
  const expressions = list(stage.expressions, `${at}.expressions`);
  expressions.forEach((e, i) => {
    const name = isClause(e) && isMap(e[1]) ? e[1]['lib/expression-name'] : undefined;
    if (typeof name !== 'string' || name === '') throw new InvalidQueryError('an expression needs its name in the "lib/expression-name" option.', `${at}.expressions[${i}]`);
    if (scope.expressions.has(name)) throw new InvalidQueryError(`the expression name "${name}" is used twice.`, `${at}.expressions[${i}]`);
    scope.expressions.add(name);
  });
  const aggregations = list(stage.aggregation, `${at}.aggregation`);
  aggregations.forEach((a, i) => {
    const uuid = isClause(a) && isMap(a[1]) ? a[1]['lib/uuid'] : undefined;
    if (typeof uuid === 'string') scope.aggregations.set(uuid, i);
  });
  const joins = list(stage.joins, `${at}.joins`);
  if (joins.length) out.joins = joins.map((j, i) => convertJoin(j, `${at}.joins[${i}]`, `${legacyAt}.joins[${i}]`, scope, places));
  if (expressions.length) {
    out.expressions = Object.fromEntries(
      expressions.map((e, i) => {
        const name = (e as [string, Record<string, unknown>])[1]['lib/expression-name'] as string;
        places.push([`${legacyAt}.expressions.${name}`, `${at}.expressions[${i}]`]);
        return [name, clause(e, `${at}.expressions[${i}]`, scope)];
      }),
    );
  }
  for (const key of ['fields', 'breakout'] as const) {
    const refs = list(stage[key], `${at}.${key}`);
    if (refs.length) out[key] = refs.map((r, i) => clause(r, `${at}.${key}[${i}]`, scope));
  }
  const filters = list(stage.filters, `${at}.filters`);
  if (filters.length) out.filter = conjunction(filters, `${at}.filters`, `${legacyAt}.filter`, scope, places);
  if (aggregations.length) out.aggregation = aggregations.map((a, i) => aggregation(a, `${at}.aggregation[${i}]`, scope));
  const orderBy = list(stage['order-by'], `${at}.order-by`);
  if (orderBy.length) {
    out['order-by'] = orderBy.map((o, i) => {
      const path = `${at}.order-by[${i}]`;
      const dir = isClause(o) ? kebab(o[0]) : undefined;
      if (!isClause(o) || (dir !== 'asc' && dir !== 'desc') || !isMap(o[1]) || o.length !== 3) throw new InvalidQueryError(`expected ["asc" | "desc", {options}, ref], got ${preview(o)}.`, path);
      return [dir, clause(o[2], path, scope)];
    });
  }
  if (stage.limit !== undefined && stage.limit !== null) out.limit = stage.limit;
  if (stage.page !== undefined && stage.page !== null) out.page = stage.page;
  return out;
}

function convertJoin(raw: unknown, at: string, legacyAt: string, parent: Scope, places: ConvertedQuery['places']): Record<string, unknown> {
  if (!isMap(raw)) throw new InvalidQueryError(`expected a join map, got ${preview(raw)}.`, at);
  const join = kebabKeys(raw);
  places.push([legacyAt, at]);
  const out: Record<string, unknown> = {};
  const stages = join.stages;
  if (!Array.isArray(stages) || stages.length === 0) throw new InvalidQueryError('a join needs a non-empty list of "stages".', at);
  const only = stages.length === 1 && isMap(stages[0]) ? kebabKeys(stages[0]) : undefined;
  const sourceOnly = only && Object.keys(only).every((k) => isLibKey(k) || k === 'source-table' || k === 'source-card');
  if (sourceOnly && only['source-card'] === undefined && only['source-table'] !== undefined) {
    out['source-table'] = only['source-table'];
    places.push([`${legacyAt}.source-table`, `${at}.stages[0].source-table`]);
  } else if (sourceOnly && only['source-card'] !== undefined) {
    const converted = convertStage(only, `${at}.stages[0]`, legacyAt, true, places);
    out['source-table'] = converted['source-table'];
  } else {
    out['source-query'] = chain(stages, `${at}.stages`, `${legacyAt}.source-query`, places);
  }
  if (join.alias !== undefined) out.alias = join.alias;
  if (join.strategy !== undefined) out.strategy = join.strategy;
  const conditions = list(join.conditions, `${at}.conditions`);
  if (!conditions.length) throw new InvalidQueryError('a join needs at least one condition in "conditions".', `${at}.conditions`);
  out.condition = conjunction(conditions, `${at}.conditions`, `${legacyAt}.condition`, parent, places);
  if (Array.isArray(join.fields)) out.fields = join.fields.map((r, i) => clause(r, `${at}.fields[${i}]`, parent));
  else if (join.fields !== undefined) out.fields = join.fields;
  return out;
}

/** A list of filters (ANDed) as the one legacy filter. */
function conjunction(items: unknown[], at: string, legacyAt: string, scope: Scope, places: ConvertedQuery['places']): unknown {
  const converted = items.map((f, i) => clause(f, `${at}[${i}]`, scope));
  if (converted.length === 1) {
    places.push([legacyAt, `${at}[0]`]);
    return converted[0];
  }
  places.push([legacyAt, at]);
  items.forEach((_f, i) => places.push([`${legacyAt}.and[${i}]`, `${at}[${i}]`]));
  return ['and', ...converted];
}

/** An aggregation: its `name` / `display-name` options become the legacy `aggregation-options` wrapper. */
function aggregation(a: unknown, at: string, scope: Scope): unknown {
  const converted = clause(a, at, scope);
  const opts = isClause(a) && isMap(a[1]) ? kebabKeys(a[1]) : {};
  const named = Object.fromEntries(['name', 'display-name'].filter((k) => typeof opts[k] === 'string').map((k) => [k, opts[k]]));
  return Object.keys(named).length ? ['aggregation-options', converted, named] : converted;
}

/** Any clause, `[name, {options}, ...args]`, in its legacy form; literals as they are. */
function clause(c: unknown, at: string, scope: Scope): unknown {
  if (c === null || typeof c === 'string' || typeof c === 'number' || typeof c === 'boolean') return c;
  if (!isClause(c)) throw new InvalidQueryError(`expected a clause ["name", {options}, ...arguments] or a literal, got ${preview(c)}.`, at);
  const name = kebab(c[0]);
  if (!isMap(c[1])) throw new InvalidQueryError(`expected the options map second in ${preview(c)} (MBQL 5 clauses are ["name", {options}, ...arguments]).`, at);
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
      if (args.length !== 1 || index === undefined) throw new InvalidQueryError(`no aggregation of this stage has the "lib/uuid" of ${preview(c)}.`, at);
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
      const relative = relativeFilter(name, args, at, scope);
      if (relative) return relative;
      break;
    }
    case 'offset':
      // The same clause in legacy MBQL (its options map kept, without the lib/ keys).
      if (args.length !== 2 || !Number.isInteger(args[1]) || args[1] === 0) {
        throw new InvalidQueryError(`expected ["offset", {options}, expression, n] with a whole number n other than 0, got ${preview(c)}.`, at);
      }
      return ['offset', {}, sub(args[0]), args[1]];
    case 'value':
      if (args.length !== 1 || (args[0] !== null && typeof args[0] === 'object')) throw new InvalidQueryError(`a value is ["value", {options}, <literal>], got ${preview(c)}.`, at);
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
      if (args.length !== 3 || typeof value !== 'string' || typeof unit !== 'string' || !TRUNCATION.has(unit) || !isRef(converted)) throw unknown(c, at);
      return ['=', withTemporalUnit(converted, unit), value];
    }
    case 'relative-time-interval': {
      // Metabase: [now(bucket) + value, now(bucket)) shifted by the offset (value < 0), or [now + 1, now + value + 1)
      // shifted (value > 0). Only a zero offset is a legacy time-interval; the engine has no shifted interval.
      const [ref, n, unit, offset, offsetUnit] = args;
      const converted = sub(ref);
      const exact = args.length === 5 && Number.isInteger(n) && n !== 0 && offset === 0 && typeof unit === 'string' && TRUNCATION.has(unit) && typeof offsetUnit === 'string' && isRef(converted);
      if (!exact) throw unknown(c, at);
      return ['time-interval', withTemporalUnit(converted, undefined), n, unit];
    }
  }
  if (!KNOWN_CLAUSES.has(name)) throw unknown(c, at);
  const converted = [name, ...args.map(sub)];
  if (STRING_FILTERS.has(name) && opts['case-sensitive'] !== undefined) converted.push({ 'case-sensitive': opts['case-sensitive'] });
  return converted;
}

/**
 * `=`, `!=` or `between` of a column bucketed by a unit and `relative-datetime`s of that unit, as Metabase's own
 * desugaring of `time-interval` writes them (`["between", col@day, rel(-30, day), rel(-1, day)]`): the buckets from
 * a to b counted from the current one, as legacy `time-interval`s; null when no argument is a `relative-datetime`.
 * Other uses (a column bucketed otherwise or not at all, `<`, `>`) have no exact legacy form: an unknown clause.
 */
function relativeFilter(name: string, args: unknown[], at: string, scope: Scope): unknown[] | null {
  const isRelative = (x: unknown) => isClause(x) && kebab(x[0]) === 'relative-datetime';
  if (!args.slice(1).some(isRelative)) return null;
  const ref = clause(args[0], at, scope);
  const bucket = isRef(ref) && isMap(ref[2]) && typeof ref[2]['temporal-unit'] === 'string' ? ref[2]['temporal-unit'] : undefined;
  const offset = (x: unknown): number | null => {
    if (!isRelative(x) || !bucket || !TRUNCATION.has(bucket)) return null;
    const [n, unit] = (x as unknown[]).slice(2);
    if (n === 'current' && (unit === undefined || unit === bucket)) return 0;
    return Number.isInteger(n) && unit === bucket ? (n as number) : null;
  };
  const bad = () => new InvalidQueryError(`unknown clause ${preview([name, ...args])}: a "relative-datetime" is only supported in "=", "!=" or "between" with a column bucketed by its unit.`, at);
  const unbucketed = withTemporalUnit(ref as unknown[], undefined);
  if (name === 'between') {
    const [a, b] = [offset(args[1]), offset(args[2])];
    if (args.length !== 3 || a === null || b === null || a > b) throw bad();
    return buckets(unbucketed, a, b, bucket!);
  }
  const n = offset(args[1]);
  if (args.length !== 2 || n === null) throw bad();
  const range = buckets(unbucketed, n, n, bucket!);
  // Legacy `!=` keeps the rows whose column is empty.
  return name === '=' ? range : ['or', ['not', range], ['is-null', unbucketed]];
}

/**
 * The buckets a..b of `unit` (0 the current one) on an unbucketed column, with legacy `time-interval`s only: n < 0
 * covers [n, 0), n > 0 covers [1, n], "current" [0, 1); a span not ending next to the current bucket is one
 * interval minus a shorter one.
 */
function buckets(ref: unknown[], a: number, b: number, unit: string): unknown[] {
  const ti = (n: number | 'current') => ['time-interval', ref, n, unit];
  const parts: unknown[] = [];
  if (a < 0) {
    const to = Math.min(b, -1);
    parts.push(to === -1 ? ti(a) : ['and', ti(a), ['not', ti(to + 1)]]);
  }
  if (a <= 0 && b >= 0) parts.push(ti('current'));
  if (b > 0) {
    const from = Math.max(a, 1);
    parts.push(from === 1 ? ti(b) : ['and', ti(b), ['not', ti(from - 1)]]);
  }
  return parts.length === 1 ? (parts[0] as unknown[]) : ['or', ...parts];
}

function unknown(c: unknown, at: string): InvalidQueryError {
  return new InvalidQueryError(`unknown clause ${preview(c)}.`, at);
}

function isRef(v: unknown): v is unknown[] {
  return Array.isArray(v) && (v[0] === 'field' || v[0] === 'expression');
}

/** A converted field or expression reference bucketed by `unit`, or unbucketed. */
function withTemporalUnit(ref: unknown[], unit: string | undefined): unknown[] {
  const [kind, id, opts] = ref;
  const rest = isMap(opts) ? Object.fromEntries(Object.entries(opts).filter(([k]) => k !== 'temporal-unit')) : {};
  const legacy = unit ? { ...rest, 'temporal-unit': unit } : rest;
  if (kind === 'field') return ['field', id, Object.keys(legacy).length ? legacy : null];
  return Object.keys(legacy).length ? ['expression', id, legacy] : ['expression', id];
}

function nativeOf(stage: Record<string, unknown>, at: string): Record<string, unknown> {
  const s = kebabKeys(stage);
  if (typeof s.native !== 'string' || s.native.trim() === '') throw new InvalidQueryError('a native stage needs its SQL as a non-blank "native" string.', `${at}.native`);
  const tags = s['template-tags'];
  if (!isMap(tags)) return { query: s.native, ...(tags !== undefined ? { 'template-tags': tags } : {}) };
  // A field filter's `dimension` may come as an MBQL 5 field ref too.
  const scope: Scope = { expressions: new Set(), aggregations: new Map() };
  const converted = Object.fromEntries(
    Object.entries(tags).map(([name, tag]) => {
      const dim = isMap(tag) ? tag.dimension : undefined;
      if (!isClause(dim) || !isMap(dim[1])) return [name, tag];
      return [name, { ...(tag as Record<string, unknown>), dimension: clause(dim, `${at}.template-tags.${name}.dimension`, scope) }];
    }),
  );
  return { query: s.native, 'template-tags': converted };
}

function stageMap(s: unknown, at: string): Record<string, unknown> {
  if (!isMap(s)) throw new InvalidQueryError(`expected a stage map, got ${preview(s)}.`, at);
  const type = s['lib/type'];
  if (type !== undefined && type !== 'mbql.stage/mbql' && type !== 'mbql.stage/native') {
    throw new InvalidQueryError(`unknown stage type ${preview(type)} (expected "mbql.stage/mbql" or "mbql.stage/native").`, at);
  }
  return s;
}

function isNativeStage(s: Record<string, unknown>): boolean {
  return s['lib/type'] === 'mbql.stage/native' || (s['lib/type'] === undefined && s.native !== undefined);
}

function list(v: unknown, at: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidQueryError(`must be a list, got ${preview(v)}.`, at);
  return v;
}

function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) out[k] = o[k];
  return out;
}

/** A clause as the caller sent it, shortened for a message. */
export function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

function isLibKey(k: string): boolean {
  return k.startsWith('lib/');
}

function kebab(s: unknown): string {
  return typeof s === 'string' ? s.replace(/_/g, '-').toLowerCase() : String(s);
}

/** Keys kebab-cased, shallowly (`source_table` too); namespaced keys (`lib/uuid`) as they are. */
function kebabKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.includes('/') ? k : k.replace(/_/g, '-'), v]));
}

function isClause(v: unknown): v is [string, ...unknown[]] {
  return Array.isArray(v) && typeof v[0] === 'string';
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
