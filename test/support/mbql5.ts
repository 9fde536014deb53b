/**
 * Legacy MBQL -> MBQL 5, for tests only: the same query as Metabase's current clients would send it (stages, clause
 * options second with a fresh `lib/uuid` each, filters as a list, expressions named by their options, aggregations
 * referred to by uuid, `lib/stage-metadata` that must be ignored). The server's direction is src/query-engine/mbql/mbql5.ts.
 * Takes normalized legacy MBQL (types.ts), as the query cases are written.
 */
let counter = 0;
const uuid = () => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
const opts = (extra: object = {}) => ({ 'lib/uuid': uuid(), ...extra });

type Inner = Record<string, unknown>;

/** A whole legacy dataset query (`{database, type, query | native, ...}`) as MBQL 5. */
export function toMbql5(q: Record<string, unknown>): Record<string, unknown> {
  const { type, query, native, ...rest } = q;
  if (type === 'native') {
    const n = native as { query: string; 'template-tags'?: unknown };
    return {
      ...rest,
      'lib/type': 'mbql/query',
      stages: [
        { 'lib/type': 'mbql.stage/native', native: n.query, ...(n['template-tags'] ? { 'template-tags': n['template-tags'] } : {}) },
      ],
    };
  }
  return { ...rest, 'lib/type': 'mbql/query', stages: stagesOf(query as Inner) };
}

/** Whether the converter can express the inner query (a native source query has no MBQL 5 form we accept). */
export function hasMbql5Form(inner: Inner): boolean {
  if ('native' in inner) return false;
  const joins = (inner.joins ?? []) as Inner[];
  return (
    joins.every((j) => !('native' in j) && (!j['source-query'] || hasMbql5Form(j['source-query'] as Inner))) &&
    (!inner['source-query'] || hasMbql5Form(inner['source-query'] as Inner))
  );
}

function stagesOf(inner: Inner): Inner[] {
  const { 'source-query': source, ...own } = inner;
  return [...(source ? stagesOf(source as Inner) : []), stage(own)];
}

function stage(q: Inner): Inner {
  const out: Inner = { 'lib/type': 'mbql.stage/mbql', 'lib/stage-metadata': { 'lib/type': 'metadata/results', columns: [] } };
  const st = q['source-table'];
  if (typeof st === 'string' && st.startsWith('card__')) out['source-card'] = Number(st.slice('card__'.length));
  else if (st !== undefined) out['source-table'] = st;
  const aggregations = ((q.aggregation ?? []) as unknown[]).map((a) => aggregation(a));
  const uuids = aggregations.map((a) => (a as [string, { 'lib/uuid': string }])[1]['lib/uuid']);
  const convert = (c: unknown) => clause(c, uuids);
  if (q.joins) out.joins = (q.joins as Inner[]).map((j) => join(j, convert));
  if (q.expressions) {
    out.expressions = Object.entries(q.expressions as Inner).map(([name, e]) => {
      const c = Array.isArray(e) && typeof e[0] === 'string' ? (convert(e) as unknown[]) : ['value', opts(), e];
      return [c[0], { ...(c[1] as object), 'lib/expression-name': name }, ...c.slice(2)];
    });
  }
  if (q.fields) out.fields = (q.fields as unknown[]).map(convert);
  if (q.breakout) out.breakout = (q.breakout as unknown[]).map(convert);
  if (q.filter) out.filters = splitAnd(q.filter).map(convert);
  if (aggregations.length)
    out.aggregation = aggregations.map((a) => {
      const [name, o, ...args] = a as [string, object, ...unknown[]];
      return [name, o, ...args.map(convert)];
    });
  if (q['order-by']) out['order-by'] = (q['order-by'] as Array<[string, unknown]>).map(([dir, ref]) => [dir, opts(), convert(ref)]);
  if (q.limit !== undefined) out.limit = q.limit;
  if (q.page !== undefined) out.page = q.page;
  return out;
}

function join(j: Inner, convert: (c: unknown) => unknown): Inner {
  const stages = j['source-query'] ? stagesOf(j['source-query'] as Inner) : [stage({ 'source-table': j['source-table'] })];
  return {
    'lib/type': 'mbql/join',
    'lib/options': { 'lib/uuid': uuid() },
    stages,
    conditions: splitAnd(j.condition).map(convert),
    alias: j.alias,
    ...(j.strategy ? { strategy: j.strategy } : {}),
    ...(j.fields !== undefined ? { fields: Array.isArray(j.fields) ? j.fields.map(convert) : j.fields } : {}),
  };
}

function splitAnd(f: unknown): unknown[] {
  return Array.isArray(f) && f[0] === 'and' ? f.slice(1) : [f];
}

/** An aggregation with its options second; `aggregation-options` names move into them. Arguments converted later. */
function aggregation(a: unknown): unknown {
  if (Array.isArray(a) && a[0] === 'aggregation-options') {
    const [name, o, ...args] = aggregation(a[1]) as [string, object, ...unknown[]];
    return [name, { ...o, ...(a[2] as object) }, ...args];
  }
  const [name, ...args] = a as [string, ...unknown[]];
  return [name, opts(), ...args];
}

const STRING_FILTERS = new Set(['contains', 'does-not-contain', 'starts-with', 'ends-with']);
const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function clause(c: unknown, aggregations: string[]): unknown {
  if (!Array.isArray(c) || typeof c[0] !== 'string') return c;
  const sub = (x: unknown) => clause(x, aggregations);
  const [name, ...args] = c as [string, ...unknown[]];
  switch (name) {
    case 'field':
      return ['field', opts((args[1] ?? {}) as object), args[0]];
    case 'expression':
      return ['expression', opts((args[1] ?? {}) as object), args[0]];
    case 'aggregation':
      return ['aggregation', opts(), aggregations[args[0] as number]];
    case 'value':
      return ['value', opts(), args[0]];
    case 'case':
    case 'if': {
      const pairs = (args[0] as unknown[][]).map(([k, v]) => [sub(k), sub(v)]);
      const fallback = isMap(args[1]) && 'default' in args[1] ? [sub(args[1].default)] : [];
      return [name, opts(), pairs, ...fallback];
    }
    case 'time-interval': {
      const [ref, n, unit, o] = args;
      return [name, opts(isMap(o) ? o : {}), sub(ref), n, unit];
    }
  }
  if (STRING_FILTERS.has(name) && isMap(args[args.length - 1])) {
    return [name, opts(args[args.length - 1] as object), ...args.slice(0, -1).map(sub)];
  }
  // Aggregations nested in expressions (["/", ["sum", x], ["count"]]) have options too.
  return [name, opts(), ...args.map(sub)];
}
