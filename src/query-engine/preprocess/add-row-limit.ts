import { Stage } from './context';

/** The outermost query returns at most `maxRows` rows: a smaller `limit` stays, a larger one is capped. */
export const addRowLimit: Stage = (query, ctx) => {
  if (query.type !== 'query' || !query.query) return query;
  const q = query.query;
  const pageItems = q.page ? q.page.items : undefined;
  const wanted = Math.min(q.limit ?? Infinity, pageItems ?? Infinity);
  return wanted <= ctx.maxRows
    ? query
    : {
        ...query,
        query: { ...q, limit: ctx.maxRows, ...(q.page ? { page: { ...q.page, items: Math.min(q.page.items, ctx.maxRows) } } : {}) },
      };
};
