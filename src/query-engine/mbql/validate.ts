import { EXTRACTION_UNITS, TRUNCATION_UNITS } from './types';
import type { DatasetQuery, InnerQuery } from './types';

/** A query the engine cannot accept; `clause` names where (e.g. `aggregation`, `joins[1].condition`). */
export class InvalidQueryError extends Error {
  readonly kind = 'invalid-query';

  constructor(
    /** What is wrong, without the place (`must be a list.`). */
    readonly reason: string,
    readonly clause: string,
  ) {
    super(`Invalid query: ${clause}: ${reason}`);
    this.name = 'InvalidQueryError';
  }
}

const FILTERS = new Set([
  'and',
  'or',
  'not',
  '=',
  '!=',
  '<',
  '>',
  '<=',
  '>=',
  'between',
  'starts-with',
  'ends-with',
  'contains',
  'does-not-contain',
  'inside',
  'is-null',
  'not-null',
  'is-empty',
  'not-empty',
  'time-interval',
  'segment',
]);
const AGGREGATIONS = new Set([
  'count',
  'cum-count',
  'sum',
  'cum-sum',
  'avg',
  'distinct',
  'min',
  'max',
  'stddev',
  'var',
  'median',
  'percentile',
  'share',
  'count-where',
  'sum-where',
  'metric',
  'aggregation-options',
]);
/** Functions an expression may use; anything else is a typo or an unsupported clause, named in the error. */
const FUNCTIONS = new Set([
  '+',
  '-',
  '*',
  '/',
  'concat',
  'substring',
  'lower',
  'upper',
  'trim',
  'ltrim',
  'rtrim',
  'length',
  'coalesce',
  'case',
  'if',
  'round',
  'abs',
  'floor',
  'ceil',
  'sqrt',
  'power',
  'exp',
  'log',
  'replace',
  'regex-match-first',
  'get-year',
  'get-quarter',
  'get-month',
  'get-week',
  'get-day',
  'get-day-of-week',
  'get-hour',
  'get-minute',
  'get-second',
  'datetime-add',
  'datetime-subtract',
  'datetime-diff',
  'now',
  'value',
]);
/** Every clause name a query may use besides references (`field`, `expression`, `aggregation`): MBQL 5 conversion checks against it. */
export const KNOWN_CLAUSES: ReadonlySet<string> = new Set([...FILTERS, ...AGGREGATIONS, ...FUNCTIONS]);
const UNITS = new Set<string>(['default', ...TRUNCATION_UNITS, ...EXTRACTION_UNITS]);
const INTERVAL_UNITS = new Set(['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
const STRATEGIES = new Set(['left-join', 'right-join', 'inner-join', 'full-join']);
const STRING_FILTERS = new Set(['starts-with', 'ends-with', 'contains', 'does-not-contain']);

/**
 * How many arguments a clause takes, [min, max]: the compiler relies on it. Clauses not listed take any number
 * (`case`/`if` take their [condition, value] pairs and options, which the compiler reads).
 */
const ARITY: Record<string, [number, number]> = {
  and: [1, Infinity],
  or: [1, Infinity],
  not: [1, 1],
  '<': [2, 2],
  '>': [2, 2],
  '<=': [2, 2],
  '>=': [2, 2],
  between: [3, 3],
  inside: [6, 6],
  'is-null': [1, 1],
  'not-null': [1, 1],
  'is-empty': [1, 1],
  'not-empty': [1, 1],
  '=': [2, Infinity],
  '!=': [2, Infinity],
  'starts-with': [2, 3],
  'ends-with': [2, 3],
  contains: [2, 3],
  'does-not-contain': [2, 3],
  'time-interval': [3, 4],
  '+': [2, Infinity],
  '-': [2, Infinity],
  '*': [2, Infinity],
  '/': [2, Infinity],
  concat: [1, Infinity],
  substring: [2, 3],
  length: [1, 1],
  coalesce: [1, Infinity],
  round: [1, 1],
  'datetime-add': [3, 3],
  'datetime-diff': [3, 3],
  'get-year': [1, 1],
  'get-quarter': [1, 1],
  'get-month': [1, 1],
  'get-week': [1, 1],
  'get-day': [1, 1],
  'get-day-of-week': [1, 1],
  'get-hour': [1, 1],
  'get-minute': [1, 1],
  'get-second': [1, 1],
  abs: [1, 1],
  floor: [1, 1],
  ceil: [1, 1],
  sqrt: [1, 1],
  power: [2, 2],
  exp: [1, 1],
  log: [1, 1],
  lower: [1, 1],
  upper: [1, 1],
  trim: [1, 1],
  ltrim: [1, 1],
  rtrim: [1, 1],
  sum: [1, Infinity],
  'cum-sum': [1, Infinity],
  avg: [1, Infinity],
  distinct: [1, Infinity],
  min: [1, Infinity],
  max: [1, Infinity],
  stddev: [1, Infinity],
  var: [1, Infinity],
  median: [1, Infinity],
  percentile: [1, Infinity],
  share: [1, 1],
  'count-where': [1, 1],
  'sum-where': [2, 2],
};

function checkArity(clause: unknown[], at: string): void {
  const name = clause[0] as string;
  const range = ARITY[name];
  const n = clause.length - 1;
  if (range && (n < range[0] || n > range[1])) {
    const takes = range[0] === range[1] ? range[0] : range[1] === Infinity ? `${range[0]} or more` : `${range[0]} to ${range[1]}`;
    throw new InvalidQueryError(`wrong number of arguments to "${name}" (${n}; it takes ${takes}).`, at);
  }
}

/** Checks the shape of a normalized query, with a message naming the bad clause. */
export function validateDatasetQuery(q: DatasetQuery): void {
  if (!Number.isInteger(q.database) || q.database < 1) throw new InvalidQueryError('must be the id of a database.', 'database');
  if (q.type === 'query') {
    if (!q.query || typeof q.query !== 'object') throw new InvalidQueryError('a structured query needs a `query` map.', 'query');
    validateInner(q.query, 'query');
  } else if (q.type === 'native') {
    if (!q.native || typeof q.native.query !== 'string' || q.native.query.trim() === '') {
      throw new InvalidQueryError('a native query needs a non-blank `query` string.', 'native.query');
    }
  } else {
    throw new InvalidQueryError('must be `query` or `native`.', 'type');
  }
  for (const key of ['max-results', 'max-results-bare-rows'] as const) {
    const max = q.constraints?.[key];
    if (max !== undefined && (!Number.isInteger(max) || max < 1))
      throw new InvalidQueryError('must be a positive integer.', `constraints.${key}`);
  }
}

/**
 * A saved question's query as it is spliced into another (resolve-source-cards, a native `{{#card}}` tag): the same
 * checks as a query sent, its errors naming the card (`card 12: query.aggregation`). The query is taken as stored
 * (normalized MBQL): it is not normalized again.
 */
export function validateCardQuery(cardId: number, q: DatasetQuery): void {
  within(`card ${cardId}`, () => validateDatasetQuery(q));
}

/** A segment's filter as expand-segments-and-metrics splices it in, errors naming the segment. */
export function validateSegmentFilter(segmentId: number, filter: unknown): void {
  within(`segment ${segmentId}`, () => validateFilter(filter, 'filter'));
}

/** A metric's aggregation (and filter) as expand-segments-and-metrics splices them in, errors naming the metric. */
export function validateMetricDefinition(metricId: number, aggregation: unknown, filter: unknown): void {
  within(`metric ${metricId}`, () => {
    validateAggregation(aggregation, 'aggregation[0]');
    if (filter !== undefined && filter !== null) validateFilter(filter, 'filter');
  });
}

/** A parameter's target reference (`["dimension", ref]`), before it becomes a filter of the query. */
export function validateParameterRef(ref: unknown, at: string): void {
  validateRef(ref, at);
}

function within(owner: string, check: () => void): void {
  try {
    check();
  } catch (e) {
    if (e instanceof InvalidQueryError) throw new InvalidQueryError(e.reason, `${owner}: ${e.clause}`);
    throw e;
  }
}

/**
 * Keys that preprocessing sets on an inner query or a join (types.ts) and the compiler trusts: `native` is the SQL
 * of a native saved question used as a source. A client sending one would run SQL through a structured query.
 */
const INTERNAL_KEYS = ['native', 'native-columns', 'native-params', 'qp/row-policy-card'] as const;

function refuseInternalKeys(node: object, path: string): void {
  for (const key of INTERNAL_KEYS) {
    if (Object.prototype.hasOwnProperty.call(node, key)) {
      throw new InvalidQueryError(
        'is not part of a structured query (SQL is sent as a native query: {"type": "native", "native": {"query": ...}}).',
        `${path}.${key}`,
      );
    }
  }
}

const LISTS = ['joins', 'fields', 'breakout', 'aggregation', 'order-by'] as const;

export function validateInner(q: InnerQuery, path: string): void {
  if (!q || typeof q !== 'object' || Array.isArray(q)) throw new InvalidQueryError('must be a map.', path);
  refuseInternalKeys(q, path);
  for (const key of LISTS) {
    if (q[key] !== undefined && q[key] !== null && !Array.isArray(q[key])) throw new InvalidQueryError('must be a list.', `${path}.${key}`);
  }
  if (q.expressions !== undefined && q.expressions !== null && (typeof q.expressions !== 'object' || Array.isArray(q.expressions))) {
    throw new InvalidQueryError('must be a map of names to expressions.', `${path}.expressions`);
  }
  const st = q['source-table'];
  const hasSource = st !== undefined || q['source-query'] !== undefined;
  if (!hasSource) throw new InvalidQueryError('a query needs `source-table` or `source-query`.', path);
  if (st !== undefined && !(Number.isInteger(st) && (st as number) > 0) && !(typeof st === 'string' && /^card__[1-9]\d*$/.test(st))) {
    throw new InvalidQueryError(`must be a table id or "card__<id>", not ${JSON.stringify(st)}.`, `${path}.source-table`);
  }
  if (q['source-query']) validateInner(q['source-query'], `${path}.source-query`);
  const aliases = new Set<string>();
  (q.joins ?? []).forEach((j, i) => {
    const at = `${path}.joins[${i}]`;
    if (!j || typeof j !== 'object' || Array.isArray(j)) throw new InvalidQueryError('must be a map.', at);
    refuseInternalKeys(j, at);
    if (typeof j.alias !== 'string' || j.alias.trim() === '') throw new InvalidQueryError('every join needs an `alias`.', at);
    if (aliases.has(j.alias)) throw new InvalidQueryError(`Duplicate join alias "${j.alias}": the alias is used twice.`, at);
    aliases.add(j.alias);
    if (j['source-query']) validateInner(j['source-query'], `${at}.source-query`);
    else if (!Number.isInteger(j['source-table']) && !(typeof j['source-table'] === 'string' && /^card__\d+$/.test(j['source-table']))) {
      throw new InvalidQueryError('a join needs `source-table` or `source-query`.', at);
    }
    if (j.strategy !== undefined && !STRATEGIES.has(j.strategy))
      throw new InvalidQueryError(`unknown strategy "${j.strategy}".`, `${at}.strategy`);
    if (!Array.isArray(j.condition)) throw new InvalidQueryError('a join needs a `condition`.', `${at}.condition`);
    validateFilter(j.condition, `${at}.condition`);
    const fields: unknown = j.fields;
    if (Array.isArray(fields)) fields.forEach((r, k) => validateRef(r, `${at}.fields[${k}]`));
    else if (fields !== undefined && fields !== null && fields !== 'all' && fields !== 'none') {
      throw new InvalidQueryError('Join "fields" must be "all", "none" or a list.', `${at}.fields`);
    }
  });
  for (const [name, e] of Object.entries(q.expressions ?? {})) validateExpr(e, `${path}.expressions.${name}`);
  (q.fields ?? []).forEach((r, i) => validateRef(r, `${path}.fields[${i}]`));
  (q.breakout ?? []).forEach((r, i) => validateRef(r, `${path}.breakout[${i}]`));
  if (q.filter !== undefined) validateFilter(q.filter, `${path}.filter`);
  (q.aggregation ?? []).forEach((a, i) => validateAggregation(a, `${path}.aggregation[${i}]`));
  (q['order-by'] ?? []).forEach((o, i) => {
    if (!Array.isArray(o) || (o[0] !== 'asc' && o[0] !== 'desc'))
      throw new InvalidQueryError('each entry must be ["asc" | "desc", ref].', `${path}.order-by[${i}]`);
    validateRef(o[1], `${path}.order-by[${i}]`);
  });
  if (q.limit !== undefined && (!Number.isInteger(q.limit) || q.limit < 0))
    throw new InvalidQueryError('must be a non-negative integer.', `${path}.limit`);
  if (q.page !== undefined) {
    const ok = q.page && Number.isInteger(q.page.page) && q.page.page >= 1 && Number.isInteger(q.page.items) && q.page.items >= 1;
    if (!ok) throw new InvalidQueryError('must be {page, items} with positive integers.', `${path}.page`);
  }
}

function validateRef(r: unknown, at: string): void {
  if (!Array.isArray(r)) throw new InvalidQueryError(`expected a field reference, got ${JSON.stringify(r)}.`, at);
  const [kind, id, opts] = r as [unknown, unknown, unknown];
  if (kind === 'field') {
    if (!(Number.isInteger(id) && (id as number) > 0) && !(typeof id === 'string' && id.length > 0)) {
      throw new InvalidQueryError(`a field is named by a positive id or a column name, not ${JSON.stringify(id)}.`, at);
    }
    const o = refOptions(opts, 'field', at);
    if (o['source-field'] !== undefined && !(Number.isInteger(o['source-field']) && (o['source-field'] as number) > 0)) {
      throw new InvalidQueryError('`source-field` must be a field id.', at);
    }
    if (o['join-alias'] !== undefined && typeof o['join-alias'] !== 'string') {
      throw new InvalidQueryError(`Invalid join-alias ${JSON.stringify(o['join-alias'])}.`, at);
    }
    return;
  }
  if (kind === 'expression' && typeof id === 'string') {
    refOptions(opts, 'expression', at);
    return;
  }
  if (kind === 'aggregation' && Number.isInteger(id) && (id as number) >= 0) {
    refOptions(opts, 'aggregation', at);
    return;
  }
  throw new InvalidQueryError(`expected a field, expression or aggregation reference, got ${JSON.stringify(r)}.`, at);
}

/** The options map of a reference (absent or null: none), its temporal unit checked. */
function refOptions(opts: unknown, kind: string, at: string): Record<string, unknown> {
  if (opts === null || opts === undefined) return {};
  if (typeof opts !== 'object' || Array.isArray(opts)) throw new InvalidQueryError(`${kind} options must be a map.`, at);
  const o = opts as Record<string, unknown>;
  const unit = o['temporal-unit'];
  if (unit !== undefined && unit !== null && !UNITS.has(String(unit))) throw new InvalidQueryError(`unknown temporal unit "${unit}".`, at);
  if (o.binning) validateBinning(o.binning, at);
  return o;
}

/**
 * `{strategy, ...}`: a map. Its strategy and numbers are the compiler's to check (compile/binning.ts): they go into
 * the SQL text.
 */
function validateBinning(b: unknown, at: string): void {
  if (typeof b !== 'object' || Array.isArray(b)) throw new InvalidQueryError(`Invalid binning ${JSON.stringify(b)}.`, at);
}

function validateFilter(f: unknown, at: string): void {
  if (!Array.isArray(f) || typeof f[0] !== 'string') throw new InvalidQueryError(`expected a filter clause, got ${JSON.stringify(f)}.`, at);
  const name = f[0];
  if (!FILTERS.has(name)) {
    // a boolean expression (e.g. a custom column used as a filter) is also a filter
    validateExpr(f, at);
    return;
  }
  if (name === 'and' || name === 'or') {
    if (f.length < 2) throw new InvalidQueryError(`"${name}" needs at least one clause.`, at);
    f.slice(1).forEach((c, i) => validateFilter(c, `${at}.${name}[${i}]`));
  } else if (name === 'not') {
    validateFilter(f[1], `${at}.not`);
  } else if (name === 'segment') {
    if (!(Number.isInteger(f[1]) && f[1] > 0)) throw new InvalidQueryError('a segment is named by its id.', at);
  } else if (name === 'time-interval') {
    validateRef(f[1], at);
    const n = f[2];
    if (!(Number.isInteger(n) || n === 'current' || n === 'last' || n === 'next'))
      throw new InvalidQueryError('the amount must be an integer, "current", "last" or "next".', at);
    if (!INTERVAL_UNITS.has(String(f[3]))) throw new InvalidQueryError(`unknown unit "${f[3]}".`, at);
  } else {
    if (f.length < 2) throw new InvalidQueryError(`"${name}" needs a field.`, at);
    validateExpr(f[1], at);
    const needsValue = !['is-null', 'not-null', 'is-empty', 'not-empty'].includes(name);
    if (needsValue && f.length < 3) throw new InvalidQueryError(`"${name}" needs a value.`, at);
    // the values: literals or expressions (a string filter's last argument is its options map)
    if (STRING_FILTERS.has(name)) {
      validateExpr(f[2], at);
      const options: unknown = f[3];
      if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) {
        throw new InvalidQueryError(`the options of "${name}" must be a map.`, at);
      }
    } else {
      f.slice(2).forEach((v) => validateExpr(v, at));
    }
  }
  checkArity(f, at);
}

function validateAggregation(a: unknown, at: string): void {
  if (!Array.isArray(a) || typeof a[0] !== 'string')
    throw new InvalidQueryError(`expected an aggregation clause, got ${JSON.stringify(a)}.`, at);
  if (!AGGREGATIONS.has(a[0])) {
    validateExpr(a, at); // arithmetic over aggregations, e.g. ["/", ["sum", x], ["count"]]
    return;
  }
  if (a[0] === 'aggregation-options') {
    validateAggregation(a[1], at);
    if (a[2] !== undefined && (a[2] === null || typeof a[2] !== 'object')) throw new InvalidQueryError('options must be a map.', at);
    return;
  }
  checkArity(a, at);
  if (a[0] === 'percentile' && !(typeof a[2] === 'number' && a[2] >= 0 && a[2] <= 1)) {
    throw new InvalidQueryError('percentile needs a number between 0 and 1.', at);
  }
  if (a[0] === 'metric' && !(Number.isInteger(a[1]) && a[1] > 0)) throw new InvalidQueryError('a metric is named by its id.', at);
  if (['share', 'count-where'].includes(a[0])) validateFilter(a[1], at);
  if (a[0] === 'sum-where') validateFilter(a[2], at);
  if (a[1] !== undefined && !['share', 'count-where', 'metric'].includes(a[0])) validateExpr(a[1], at);
}

/**
 * `["offset", {options}, expr, n]` (Metabase 0.50+, the same in legacy MBQL): the value of an aggregation expression
 * `n` rows before (n < 0) or after the current one; n is a whole number other than 0.
 */
function validateOffset(e: unknown[], at: string): void {
  const [, opts, expr, n] = e;
  if (e.length !== 4 || (opts !== null && (typeof opts !== 'object' || Array.isArray(opts)))) {
    throw new InvalidQueryError(`expected ["offset", {options}, expression, n], got ${JSON.stringify(e)}.`, at);
  }
  if (!Number.isInteger(n) || n === 0)
    throw new InvalidQueryError(`the rows of "offset" must be a whole number other than 0, got ${JSON.stringify(n)}.`, at);
  validateExpr(expr, at);
}

function validateExpr(e: unknown, at: string): void {
  if (e === null || ['string', 'number', 'boolean'].includes(typeof e)) return;
  if (!Array.isArray(e) || typeof e[0] !== 'string') throw new InvalidQueryError(`expected an expression, got ${JSON.stringify(e)}.`, at);
  if (['field', 'expression', 'aggregation'].includes(e[0])) return validateRef(e, at);
  if (FILTERS.has(e[0])) return validateFilter(e, at); // a condition used as a value (a case branch, a boolean column)
  if (e[0] === 'offset') return validateOffset(e, at);
  if (!FUNCTIONS.has(e[0]) && !AGGREGATIONS.has(e[0])) throw new InvalidQueryError(`unknown clause "${e[0]}".`, at);
  checkArity(e, at);
  for (const arg of e.slice(1)) {
    if (Array.isArray(arg) && typeof arg[0] === 'string') validateExpr(arg, at);
    else if (Array.isArray(arg)) arg.forEach((x) => (Array.isArray(x) ? x.forEach((y) => validateExpr(y, at)) : validateExpr(x, at)));
  }
  const options = e[2] as unknown;
  if ((e[0] === 'case' || e[0] === 'if') && options !== null && typeof options === 'object' && 'default' in options) {
    validateExpr((options as { default: unknown }).default, at);
  }
}
