import { isMap, uuid } from './mbql';
import type { Mbql5Query } from './types';

/**
 * Any saved question's query as MBQL 5, so the notebook edits one form only. MBQL 5 is taken as it is; legacy
 * `{type: "query", database, query: {...}}` is converted as the server reads it back (src/query-engine/mbql/
 * mbql5-stages.ts and mbql5-clauses.ts, the other direction), after the historical spellings the server still accepts
 * (normalize.ts: `field-id`, `fk->`, `datetime-field`, `binning-strategy`, `joined-field`, snake_case keys) are
 * turned into today's. Null when it is not an MBQL query (native SQL, nothing).
 */
export function toMbql5(query: unknown): Mbql5Query | null {
  if (!isMap(query)) return null;
  if (query['lib/type'] === 'mbql/query') {
    // A native stage is the SQL editor's (mbql5-stages.ts: only ever the first and only stage).
    const first: unknown = Array.isArray(query.stages) ? query.stages[0] : undefined;
    if (!isMap(first) || first['lib/type'] === 'mbql.stage/native' || (first['lib/type'] === undefined && 'native' in first)) return null;
    return query as unknown as Mbql5Query;
  }
  const q = kebabKeys(query);
  if (String(q.type).toLowerCase() !== 'query' || !isMap(q.query) || typeof q.database !== 'number') return null;
  return { 'lib/type': 'mbql/query', database: q.database, stages: stagesOf(q.query) };
}

type Inner = Record<string, unknown>;
const opts = (extra: Record<string, unknown> = {}) => ({ 'lib/uuid': uuid(), ...extra });

/** Legacy `source-query` nesting, inside out: the innermost query is the first stage. */
function stagesOf(raw: Inner): Inner[] {
  const { 'source-query': source, ...own } = kebabKeys(raw);
  return [...(isMap(source) ? stagesOf(source) : []), stage(own)];
}

function stage(q: Inner): Inner {
  const out: Inner = { 'lib/type': 'mbql.stage/mbql' };
  const st = q['source-table'];
  if (typeof st === 'string' && st.startsWith('card__')) out['source-card'] = Number(st.slice('card__'.length));
  else if (st !== undefined) out['source-table'] = st;
  const aggregations = aggregationList(q.aggregation).map(aggregation);
  const uuids = aggregations.map((a) => (a[1] as { 'lib/uuid': string })['lib/uuid']);
  const convert = (c: unknown) => clause(c, uuids);
  // A bare number is a field id only where a reference is expected (fields, breakout, order-by); elsewhere a literal.
  const ref = (c: unknown) => (typeof c === 'number' ? ['field', opts(), c] : convert(c));
  if (Array.isArray(q.joins)) out.joins = q.joins.filter(isMap).map((j) => join(kebabKeys(j), convert));
  if (isMap(q.expressions)) {
    out.expressions = Object.entries(q.expressions).map(([name, e]) => {
      const c = isLegacyClause(e) ? (convert(e) as unknown[]) : ['value', opts(), e];
      return [c[0], { ...(c[1] as object), 'lib/expression-name': name }, ...c.slice(2)];
    });
  }
  if (Array.isArray(q.fields)) out.fields = q.fields.map(ref);
  if (Array.isArray(q.breakout)) out.breakout = (isLegacyClause(q.breakout) ? [q.breakout] : q.breakout).map(ref);
  if (q.filter !== undefined && q.filter !== null) out.filters = splitAnd(q.filter).map(convert);
  if (aggregations.length)
    out.aggregation = aggregations.map(([name, o, ...args]) => [name, o, ...args.map((a) => (isLegacyClause(a) ? convert(a) : a))]);
  if (Array.isArray(q['order-by'])) out['order-by'] = q['order-by'].map((o) => orderBy(o, ref));
  if (q.limit !== undefined && q.limit !== null) out.limit = q.limit;
  if (q.page !== undefined && q.page !== null) out.page = q.page;
  return out;
}

function join(j: Inner, convert: (c: unknown) => unknown): Inner {
  const st = j['source-table'];
  const source: Inner =
    typeof st === 'string' && st.startsWith('card__')
      ? { 'lib/type': 'mbql.stage/mbql', 'source-card': Number(st.slice('card__'.length)) }
      : { 'lib/type': 'mbql.stage/mbql', 'source-table': st };
  const strategy = typeof j.strategy === 'string' ? kebab(j.strategy) : 'left-join';
  return {
    'lib/type': 'mbql/join',
    'lib/options': opts(),
    stages: isMap(j['source-query']) ? stagesOf(j['source-query']) : [source],
    conditions: j.condition === undefined || j.condition === null ? [] : splitAnd(j.condition).map(convert),
    alias: j.alias,
    strategy,
    ...(j.fields !== undefined ? { fields: Array.isArray(j.fields) ? j.fields.map(convert) : j.fields } : {}),
  };
}

function orderBy(o: unknown, convert: (c: unknown) => unknown): unknown {
  if (!Array.isArray(o)) return o;
  const first = typeof o[0] === 'string' ? o[0].toLowerCase() : '';
  if (first === 'asc' || first === 'desc') return [first, opts(), convert(o[1])];
  const old = typeof o[1] === 'string' ? o[1].toLowerCase() : '';
  return [old === 'descending' ? 'desc' : 'asc', opts(), convert(o[0])];
}

/** The single-aggregation form (`["count"]`) is a list of one. */
function aggregationList(a: unknown): unknown[] {
  if (!Array.isArray(a)) return [];
  return typeof a[0] === 'string' ? [a] : a;
}

/** An aggregation with its options second; `aggregation-options` names move into them. Arguments are converted later. */
function aggregation(a: unknown): [string, Record<string, unknown>, ...unknown[]] {
  if (Array.isArray(a) && kebab(a[0]) === 'aggregation-options') {
    const [name, o, ...args] = aggregation(a[1]);
    return [name, { ...o, ...kebabKeys(isMap(a[2]) ? a[2] : {}) }, ...args];
  }
  const [name, ...args] = Array.isArray(a) ? a : ['count'];
  return [kebab(name), opts(), ...args];
}

const STRING_FILTERS = new Set(['contains', 'does-not-contain', 'starts-with', 'ends-with']);

/** A legacy clause (any historical spelling) as MBQL 5; literals as they are. */
function clause(raw: unknown, aggregations: string[]): unknown {
  if (!isLegacyClause(raw)) return raw;
  const sub = (x: unknown) => clause(x, aggregations);
  // Inside the old reference wrappers a bare number is a field id.
  const inner = (x: unknown) => (typeof x === 'number' ? ['field', opts(), x] : sub(x));
  const name = kebab(raw[0]);
  const args = raw.slice(1);
  switch (name) {
    case 'field': {
      const o = isMap(args[1]) ? kebabKeys(args[1]) : {};
      if (typeof o['temporal-unit'] === 'string') o['temporal-unit'] = kebab(o['temporal-unit']);
      return ['field', opts(o), args[0]];
    }
    case 'field-id':
      return inner(args[0]);
    case 'field-literal':
      return ['field', opts({ 'base-type': args[1] }), args[0]];
    case 'fk->':
      return withOption(inner(args[1]), { 'source-field': fieldId(inner(args[0])) });
    case 'datetime-field':
      return withOption(inner(args[0]), { 'temporal-unit': kebab(args[args.length - 1]) });
    case 'binning-strategy': {
      const strategy = kebab(args[1]);
      return withOption(inner(args[0]), { binning: strategy === 'default' ? { strategy } : { strategy, [strategy]: args[2] } });
    }
    case 'joined-field':
      return withOption(inner(args[1]), { 'join-alias': args[0] });
    case 'expression':
      return ['expression', opts(isMap(args[1]) ? kebabKeys(args[1]) : {}), args[0]];
    case 'aggregation':
      return ['aggregation', opts(), aggregations[Number(args[0])] ?? args[0]];
    case 'value':
      return ['value', opts(), args[0]];
    case 'case':
    case 'if': {
      const pairs = Array.isArray(args[0]) ? (args[0] as unknown[][]).map((p) => [sub(p[0]), sub(p[1])]) : [];
      const fallback = isMap(args[1]) && 'default' in args[1] ? [sub(args[1].default)] : [];
      return [name, opts(), pairs, ...fallback];
    }
    case 'time-interval': {
      const [ref, n, unit, o] = args;
      return [name, opts(isMap(o) ? kebabKeys(o) : {}), sub(ref), n, typeof unit === 'string' ? kebab(unit) : unit];
    }
  }
  const last = args[args.length - 1];
  if (STRING_FILTERS.has(name) && isMap(last)) return [name, opts(kebabKeys(last)), ...args.slice(0, -1).map(sub)];
  // Aggregations nested in expressions (["/", ["sum", x], ["count"]]) have options too.
  return [name, opts(), ...args.map(sub)];
}

function withOption(ref: unknown, extra: Record<string, unknown>): unknown {
  if (!Array.isArray(ref) || !isMap(ref[1])) return ref;
  return [ref[0], { ...ref[1], ...extra }, ...ref.slice(2)];
}

function fieldId(ref: unknown): unknown {
  return Array.isArray(ref) ? ref[2] : ref;
}

function splitAnd(f: unknown): unknown[] {
  return Array.isArray(f) && kebab(f[0]) === 'and' ? f.slice(1) : [f];
}

function isLegacyClause(v: unknown): v is [string, ...unknown[]] {
  return Array.isArray(v) && typeof v[0] === 'string';
}

function kebab(s: unknown): string {
  return typeof s === 'string' ? s.replace(/_/g, '-').toLowerCase() : String(s);
}

function kebabKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.includes('/') ? k : k.replace(/_/g, '-'), v]));
}
