import type { FieldRef, InnerQuery, Ref } from '../mbql/types';
import { mapInnerQueries, Stage } from './context';

const TEMPORAL = new Set(['type/Date', 'type/DateTime', 'type/DateTimeWithLocalTZ']);

/** A temporal field in a breakout without a unit is bucketed by day, as Metabase does. */
export const bucketDatetimes: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query) return query;
  const bucket = async (ref: Ref): Promise<Ref> => {
    if (ref[0] !== 'field') return ref;
    const [, id, opts] = ref as FieldRef;
    if (opts?.['temporal-unit'] || opts?.binning) return ref;
    const baseType = typeof id === 'number' ? (await ctx.metadata.field(id))?.baseType : opts?.['base-type'];
    return baseType && TEMPORAL.has(baseType) ? ['field', id, { ...(opts ?? {}), 'temporal-unit': 'day' }] : ref;
  };
  return {
    ...query,
    query: await mapInnerQueries(query.query, async (q: InnerQuery) =>
      q.breakout ? { ...q, breakout: await Promise.all(q.breakout.map(bucket)) } : q,
    ),
  };
};
