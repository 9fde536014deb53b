import { checkConverted, isMbql5Query, mbql5ToLegacy, type ConvertedQuery } from './mbql5';
import { ABSOLUTE_MAX_RESULTS } from './types';
import type { Constraints, DatasetQuery, FieldOptions, FieldRef, InnerQuery } from './types';

/**
 * Turns what clients send into the normalized MBQL of types.ts: kebab-case keys (`source_table` and
 * `source-table` both work), lower-case kebab clause names, and the legacy clause forms of older clients
 * (`field-id`, `field-literal`, `fk->`, `datetime-field`, `binning-strategy`, `joined-field`, bare ids, the
 * single-aggregation form, `[ref, "ascending"]` ordering), and MBQL 5 (converted first; its clauses are checked then,
 * so an InvalidQueryError may come from here). Pure: the input is not modified.
 */
export function normalizeDatasetQuery(raw: unknown): DatasetQuery {
  return normalizeWithPlaces(raw).query;
}

/**
 * normalizeDatasetQuery, and for an MBQL 5 query where each legacy place came from (mbql5.ts ConvertedQuery.places),
 * with which the errors of later stages name the place as it was sent.
 */
export function normalizeWithPlaces(raw: unknown): { query: DatasetQuery; places?: ConvertedQuery['places'] } {
  // MBQL 5 first becomes legacy MBQL (mbql5.ts); its structure is checked there, where errors can name its stages.
  if (isMbql5Query(raw)) {
    const converted = mbql5ToLegacy(raw);
    const out = normalizeLegacy(converted.query);
    checkConverted(out, converted.places);
    return { query: out, places: converted.places };
  }
  return { query: normalizeLegacy(raw) };
}

function normalizeLegacy(raw: unknown): DatasetQuery {
  const q = kebabKeys(raw) as Record<string, unknown>;
  const out: DatasetQuery = { ...(q as unknown as DatasetQuery) };
  if (typeof q.type === 'string') out.type = q.type.toLowerCase() as DatasetQuery['type'];
  if (q.query && typeof q.query === 'object') out.query = normalizeInner(q.query as Record<string, unknown>);
  if (q.native && typeof q.native === 'object') out.native = normalizeNative(kebabKeys(q.native) as Record<string, unknown>);
  if (isPlainObject(q.constraints)) out.constraints = normalizeConstraints(q.constraints);
  return out;
}

/** Row caps above the absolute maximum are clamped to it (anything not a number is left for validation to refuse). */
function normalizeConstraints(raw: Record<string, unknown>): Constraints {
  const c = kebabKeys(raw) as Record<string, unknown>;
  for (const key of ['max-results', 'max-results-bare-rows']) {
    if (typeof c[key] === 'number' && c[key] > ABSOLUTE_MAX_RESULTS) c[key] = ABSOLUTE_MAX_RESULTS;
  }
  return c as Constraints;
}

export function normalizeInner(raw: Record<string, unknown>): InnerQuery {
  const q = kebabKeys(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...q };
  if (q['source-query'] && typeof q['source-query'] === 'object') {
    out['source-query'] = normalizeInner(q['source-query'] as Record<string, unknown>);
  }
  if (Array.isArray(q.joins)) {
    out.joins = q.joins.map((j) => {
      const join = kebabKeys(j) as Record<string, unknown>;
      return {
        ...join,
        ...(join['source-query'] ? { 'source-query': normalizeInner(join['source-query'] as Record<string, unknown>) } : {}),
        ...(join.condition !== undefined ? { condition: normalizeClause(join.condition) } : {}),
        ...(Array.isArray(join.fields) ? { fields: join.fields.map(normalizeRef) } : {}),
        ...(typeof join.strategy === 'string' ? { strategy: kebab(join.strategy) } : {}),
      };
    });
  }
  if (q.expressions && typeof q.expressions === 'object') {
    out.expressions = Object.fromEntries(Object.entries(q.expressions as Record<string, unknown>).map(([k, v]) => [k, normalizeClause(v)]));
  }
  for (const key of ['fields', 'breakout'] as const) {
    const v = q[key];
    if (Array.isArray(v)) out[key] = (isClause(v) ? [v] : v).map(normalizeRef);
  }
  if (q.filter !== undefined && q.filter !== null) out.filter = normalizeClause(q.filter);
  else delete out.filter;
  if (Array.isArray(q.aggregation)) {
    const list = typeof q.aggregation[0] === 'string' ? [q.aggregation] : q.aggregation;
    out.aggregation = list.map(normalizeClause);
  }
  if (Array.isArray(q['order-by'])) out['order-by'] = q['order-by'].map(normalizeOrderBy);
  return out as InnerQuery;
}

function normalizeNative(n: Record<string, unknown>): DatasetQuery['native'] {
  const tags = (n['template-tags'] ?? {}) as Record<string, Record<string, unknown>>;
  return {
    ...(n as unknown as NonNullable<DatasetQuery['native']>),
    'template-tags': Object.fromEntries(
      Object.entries(tags).map(([name, tag]) => {
        const t = kebabKeys(tag) as Record<string, unknown>;
        return [name, { ...t, ...(t.dimension ? { dimension: normalizeRef(t.dimension) } : {}) }];
      }),
    ) as NonNullable<DatasetQuery['native']>['template-tags'],
  };
}

function normalizeOrderBy(o: unknown): unknown {
  if (!Array.isArray(o)) return o;
  const dir = typeof o[0] === 'string' ? o[0].toLowerCase() : undefined;
  if (dir === 'asc' || dir === 'desc') return [dir, normalizeRef(o[1])];
  const legacy = typeof o[1] === 'string' ? o[1].toLowerCase() : undefined;
  if (legacy === 'ascending' || legacy === 'descending') return [legacy === 'ascending' ? 'asc' : 'desc', normalizeRef(o[0])];
  return o;
}

/** A field/expression/aggregation reference in any of its historical spellings. */
export function normalizeRef(ref: unknown): unknown {
  if (typeof ref === 'number') return ['field', ref, null];
  if (!isClause(ref)) return ref;
  const name = kebab(ref[0]);
  switch (name) {
    case 'field': {
      const opts = ref[2] && typeof ref[2] === 'object' ? (kebabKeys(ref[2]) as FieldOptions) : null;
      if (opts?.['temporal-unit']) opts['temporal-unit'] = kebab(opts['temporal-unit']) as FieldOptions['temporal-unit'];
      return ['field', ref[1], opts && Object.keys(opts).length > 0 ? opts : null];
    }
    case 'field-id':
      return normalizeRef(ref[1]);
    case 'field-literal':
      return ['field', ref[1], { 'base-type': ref[2] }];
    case 'fk->': {
      const source = normalizeRef(ref[1]) as FieldRef;
      const dest = normalizeRef(ref[2]) as FieldRef;
      return withOpts(dest, { 'source-field': source[1] as number });
    }
    case 'datetime-field':
      return withOpts(normalizeRef(ref[1]) as FieldRef, {
        'temporal-unit': kebab(ref[ref.length - 1] as string) as FieldOptions['temporal-unit'],
      });
    case 'binning-strategy': {
      const strategy = kebab(ref[2] as string);
      const binning = strategy === 'default' ? { strategy } : { strategy, [strategy]: ref[3] };
      return withOpts(normalizeRef(ref[1]) as FieldRef, { binning: binning as FieldOptions['binning'] });
    }
    case 'joined-field':
      return withOpts(normalizeRef(ref[2]) as FieldRef, { 'join-alias': ref[1] as string });
    case 'expression':
    case 'aggregation':
      return [name, ref[1], ...(ref[2] ? [kebabKeys(ref[2])] : [])];
    default:
      return normalizeClause(ref);
  }
}

/** Any clause: names kebab-cased, refs normalized, nested clauses too; option maps (last-position objects) kebab-keyed. */
export function normalizeClause(c: unknown): unknown {
  if (!isClause(c)) return c;
  const name = kebab(c[0]);
  if (
    [
      'field',
      'field-id',
      'field-literal',
      'fk->',
      'datetime-field',
      'binning-strategy',
      'joined-field',
      'expression',
      'aggregation',
    ].includes(name)
  ) {
    return normalizeRef(c);
  }
  if (name === 'case') {
    const pairs = Array.isArray(c[1]) ? (c[1] as unknown[][]).map((p) => p.map(normalizeClause)) : c[1];
    return ['case', pairs, ...(c[2] ? [normalizeOptions(c[2])] : [])];
  }
  return [name, ...c.slice(1).map((a) => (isPlainObject(a) ? normalizeOptions(a) : normalizeClause(a)))];
}

function normalizeOptions(o: unknown): unknown {
  const k = kebabKeys(o) as Record<string, unknown>;
  if (k.default !== undefined) k.default = normalizeClause(k.default);
  return k;
}

function withOpts(ref: FieldRef, extra: FieldOptions): FieldRef {
  return ['field', ref[1], { ...(ref[2] ?? {}), ...extra }];
}

/** Clause names are kebab-case and lower-case: `count_where` and `Count-Where` both mean `count-where`. */
function kebab(s: unknown): string {
  return typeof s === 'string' ? s.replace(/_/g, '-').toLowerCase() : String(s);
}

/** Map keys to kebab-case, shallowly. */
function kebabKeys(o: unknown): unknown {
  if (!isPlainObject(o)) return o;
  return Object.fromEntries(Object.entries(o as Record<string, unknown>).map(([k, v]) => [k.replace(/_/g, '-'), v]));
}

function isClause(v: unknown): v is [string, ...unknown[]] {
  return Array.isArray(v) && typeof v[0] === 'string';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
