/**
 * Metabase's `query_description` of a segment or metric definition (its api/query-description): the parts of the
 * MBQL fragment broken down with display names, for the UI to phrase, such as
 * `{table: "Orders", aggregation: [{type: "sum", arg: "Total"}], filter: [{field: "Total"}, {segment: "Big"}]}`.
 * Pure: `references` lists what to look up first, `describeQuery` reads the answers.
 */

export interface DescriptionNames {
  table: string | null;
  fields: ReadonlyMap<number, string>;
  segments: ReadonlyMap<number, string>;
  metrics: ReadonlyMap<number, string>;
}

type Clause = unknown[];
const isClause = (v: unknown): v is Clause => Array.isArray(v) && typeof v[0] === 'string';
const ARG_AGGREGATIONS = new Set(['avg', 'distinct', 'stddev', 'sum', 'cum-sum', 'max', 'min']);
const BARE_AGGREGATIONS = new Set(['rows', 'count', 'cum-count']);

/** Ids of the fields, segments and metrics a definition names. */
export function references(definition: unknown): { fields: number[]; segments: number[]; metrics: number[] } {
  const out = { fields: [] as number[], segments: [] as number[], metrics: [] as number[] };
  walk(definition, (c) => {
    if (c[0] === 'field' && typeof c[1] === 'number') out.fields.push(c[1]);
    else if (c[0] === 'segment' && typeof c[1] === 'number') out.segments.push(c[1]);
    else if (c[0] === 'metric' && typeof c[1] === 'number') out.metrics.push(c[1]);
    else return true;
    return false;
  });
  return out;
}

export function describeQuery(definition: unknown, names: DescriptionNames): Record<string, unknown> {
  const q = (definition && typeof definition === 'object' && !Array.isArray(definition) ? definition : {}) as Record<string, unknown>;
  const fieldName = (ref: unknown) =>
    isClause(ref) && ref[0] === 'field' ? (typeof ref[1] === 'number' ? (names.fields.get(ref[1]) ?? null) : String(ref[1])) : null;
  const out: Record<string, unknown> = { table: names.table };

  const aggregations: Array<Record<string, unknown>> = [];
  walk(q.aggregation, (c) => {
    const type = c[0] as string;
    if (type === 'metric') aggregations.push({ type, arg: (typeof c[1] === 'number' && names.metrics.get(c[1])) || '[Unknown Metric]' });
    else if (BARE_AGGREGATIONS.has(type) && c.length === 1) aggregations.push({ type });
    else if (ARG_AGGREGATIONS.has(type)) aggregations.push({ type, arg: fieldName(c[1]) });
    else return true;
    return false;
  });
  if (aggregations.length) out.aggregation = aggregations;

  if (Array.isArray(q.breakout) && q.breakout.length) out.breakout = q.breakout.map(fieldName);

  if (q.filter !== undefined && q.filter !== null) {
    const filters: Array<Record<string, unknown>> = [];
    walk(q.filter, (c) => {
      if (c[0] === 'field') filters.push({ field: fieldName(c) });
      else if (c[0] === 'segment') filters.push({ segment: (typeof c[1] === 'number' && names.segments.get(c[1])) || '[Unknown Segment]' });
      else return true;
      return false;
    });
    out.filter = filters;
  }

  if (Array.isArray(q['order-by'])) {
    out['order-by'] = q['order-by'].filter(isClause).map((o) => ({ field: fieldName(o[1]), direction: o[0] }));
  }
  if (q.limit !== undefined && q.limit !== null) out.limit = q.limit;
  return out;
}

/** Visits every clause depth-first; `visit` answers whether to descend into the clause's arguments. */
function walk(form: unknown, visit: (c: Clause) => boolean): void {
  if (!Array.isArray(form)) {
    if (form && typeof form === 'object') Object.values(form).forEach((v) => walk(v, visit));
    return;
  }
  if (isClause(form) && !visit(form)) return;
  for (const x of isClause(form) ? form.slice(1) : form) walk(x, visit);
}
