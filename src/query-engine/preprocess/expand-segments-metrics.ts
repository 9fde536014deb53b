import type { Aggregation, Filter, InnerQuery } from '../mbql/types';
import { validateMetricDefinition, validateSegmentFilter } from '../mbql/validate';
import { mapInnerQueries, PreprocessError, PreprocessContext, Stage } from './context';

/**
 * `["segment", id]` filters become the segment's own filter; `["metric", id]` aggregations become the metric's
 * aggregation (named after the metric), its filter folded in with the `-where` forms. What is spliced in is validated
 * (mbql/validate.ts) first, its errors naming the segment or metric.
 */
export const expandSegmentsAndMetrics: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query) return query;
  return {
    ...query,
    query: await mapInnerQueries(query.query, async (q: InnerQuery, path) => ({
      ...q,
      ...(q.filter ? { filter: (await expandTopFilter(q.filter, ctx, `${path}.filter`)) as Filter } : {}),
      ...(q.aggregation
        ? { aggregation: await Promise.all(q.aggregation.map((a, i) => placed(`${path}.aggregation[${i}]`, expandAggregation(a, ctx)))) }
        : {}),
    })),
  };
};

/** A level's filter, each part of a top-level `and` placed on its own (`filter.and[1]`), as the compiler places them. */
async function expandTopFilter(f: unknown, ctx: PreprocessContext, at: string): Promise<unknown> {
  if (!Array.isArray(f) || f[0] !== 'and' || f.length <= 2) return placed(at, expandFilter(f, ctx, 0));
  return ['and', ...(await Promise.all(f.slice(1).map((c, i) => placed(`${at}.and[${i}]`, expandFilter(c, ctx, 0)))))];
}

/** A missing segment or metric is placed (PreprocessError.at) in the clause that names it. */
async function placed<T>(at: string, expanded: Promise<T>): Promise<T> {
  try {
    return await expanded;
  } catch (e) {
    if (e instanceof PreprocessError && e.at === undefined) e.at = at;
    throw e;
  }
}

async function expandFilter(f: unknown, ctx: PreprocessContext, depth: number): Promise<unknown> {
  if (!Array.isArray(f)) return f;
  if (f[0] === 'segment') {
    if (depth > 10) throw new PreprocessError('Segments nest too deeply.');
    const segment = await ctx.content.segment(Number(f[1]));
    if (!segment) throw new PreprocessError(`Segment ${f[1]} does not exist.`);
    const inner = segment.definition.filter;
    if (!inner) throw new PreprocessError(`Segment ${f[1]} has no filter.`);
    validateSegmentFilter(segment.id, inner);
    return expandFilter(inner, ctx, depth + 1);
  }
  if (f[0] === 'and' || f[0] === 'or' || f[0] === 'not') {
    return [f[0], ...(await Promise.all(f.slice(1).map((c) => expandFilter(c, ctx, depth))))];
  }
  return f;
}

async function expandAggregation(a: Aggregation, ctx: PreprocessContext): Promise<Aggregation> {
  if (a[0] === 'aggregation-options') return ['aggregation-options', await expandAggregation(a[1] as Aggregation, ctx), a[2]];
  if (a[0] !== 'metric') return a;
  const metric = await ctx.content.metric(Number(a[1]));
  if (!metric) throw new PreprocessError(`Metric ${a[1]} does not exist.`);
  const agg = metric.definition.aggregation?.[0];
  if (!agg) throw new PreprocessError(`Metric ${a[1]} has no aggregation.`);
  validateMetricDefinition(metric.id, agg, metric.definition.filter);
  const filter = metric.definition.filter ? ((await expandFilter(metric.definition.filter, ctx, 0)) as Filter) : undefined;
  return ['aggregation-options', filter ? withFilter(agg, filter, metric.id) : agg, { name: metric.name, 'display-name': metric.name }];
}

/** Aggregations of one value that skip NULLs: filtered, their value becomes NULL outside the filter (`case`). */
const NULL_SKIPPING = new Set(['count', 'avg', 'distinct', 'min', 'max', 'stddev', 'var', 'median', 'percentile']);

/**
 * The metric's aggregation counted over its filter's rows only, leaving the query's other aggregations alone:
 * `count-where` and `sum-where`, and for the others `[op, ["case", [[filter, value]]], ...]`.
 */
function withFilter(agg: Aggregation, filter: Filter, metricId: number): Aggregation {
  if (agg[0] === 'count' && agg.length === 1) return ['count-where', filter];
  if (agg[0] === 'sum') return ['sum-where', agg[1], filter];
  if (NULL_SKIPPING.has(agg[0] as string) && agg.length >= 2) return [agg[0], ['case', [[filter, agg[1]]]], ...agg.slice(2)] as Aggregation;
  throw new PreprocessError(`Metric ${metricId}: a filtered "${agg[0]}" aggregation is not supported.`);
}
