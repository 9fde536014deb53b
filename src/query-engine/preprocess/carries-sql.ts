import type { DatasetQuery, InnerQuery, Join } from '../mbql/types';
import { PERSISTED_MODEL } from './substitute-persisted-models';

/**
 * Whether running the query runs SQL that someone wrote: a native query, or (once source cards are resolved) a
 * native saved question as the source of any level, joins included. Such a query needs native-query permission,
 * as in Metabase: the query builder over a native question is a way to run its SQL.
 */
export function carriesSql(query: DatasetQuery): boolean {
  if (query.type === 'native') return true;
  return query.query !== undefined && query.query !== null && innerCarriesSql(query.query);
}

function innerCarriesSql(q: InnerQuery | Join): boolean {
  if (!q || typeof q !== 'object') return false;
  // A persisted model's table is read with the server's own SQL: the model's data permissions apply, not native ones.
  // A row security policy's SQL question is the administrator's, run in place of the table the caller may not read.
  if (q.native !== undefined) return !(PERSISTED_MODEL in q) && q['qp/row-policy-card'] === undefined;
  if (q['source-query'] && innerCarriesSql(q['source-query'])) return true;
  return Array.isArray((q as InnerQuery).joins) && (q as InnerQuery).joins!.some((j) => innerCarriesSql(j));
}
