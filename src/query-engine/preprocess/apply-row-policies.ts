import type { DatasetQuery, Filter, InnerQuery, Join } from '../mbql/types';
import { carriesSql } from './carries-sql';
import { mapInnerQueries, PreprocessContext, PreprocessError } from './context';
import { restrictionFilter, type TableRestriction } from './row-policies';
import { PERSISTED_MODEL } from './substitute-persisted-models';

/**
 * Row security (Metabase's sandboxing middleware), once sources, implicit joins and fields are resolved: every use of
 * a restricted table, as a level's source or as a join (explicit or implicit, at any depth, saved questions used as
 * sources included), sees only the rows its policies let through. A level's source table is filtered in the level's
 * WHERE (left and inner joins keep the source's rows as they are, so filtering them first or last is the same); a
 * joined table in its join condition. SQL someone wrote on such a database is refused: it could read any row.
 */
export async function applyRowPolicies(query: DatasetQuery, ctx: PreprocessContext): Promise<DatasetQuery> {
  if (!ctx.policies) return query;
  const restricted = await ctx.policies.restrictions(query.database);
  if (restricted.size === 0) return query;
  if (carriesSql(query) || (query.query && readsPersisted(query.query)))
    throw new PreprocessError(
      'Native queries are not allowed on this database: your access to its data is restricted by a row security policy.',
    );
  if (!query.query) return query;
  return { ...query, query: await mapInnerQueries(query.query, (level) => restrictLevel(level, restricted)) };
}

function restrictLevel(level: InnerQuery, restricted: ReadonlyMap<number, TableRestriction>): InnerQuery {
  let out = level;
  const source = typeof level['source-table'] === 'number' ? restricted.get(level['source-table']) : undefined;
  if (source) {
    const filter = restrictionFilter(source, (id) => ['field', id, null]);
    if (filter) out = { ...out, filter: both(out.filter, filter) };
  }
  if (Array.isArray(level.joins)) out = { ...out, joins: level.joins.map((j) => restrictJoin(j, restricted)) };
  return out;
}

function restrictJoin(join: Join, restricted: ReadonlyMap<number, TableRestriction>): Join {
  const r = typeof join['source-table'] === 'number' ? restricted.get(join['source-table']) : undefined;
  if (!r) return join;
  const filter = restrictionFilter(r, (id) => ['field', id, { 'join-alias': join.alias }]);
  if (!filter) return join;
  // A right or full join keeps the joined table's rows whatever its condition says.
  if (join.strategy === 'right-join' || join.strategy === 'full-join')
    throw new PreprocessError(`A ${join.strategy} of a table restricted by a row security policy is not supported.`, 'joins');
  return { ...join, condition: both(join.condition, filter) };
}

function both(a: Filter | undefined, b: Filter): Filter {
  return (a ? ['and', a, b] : b) as Filter;
}

/** A persisted model's table holds every row of the model: a restricted caller must go through its query instead. */
function readsPersisted(q: InnerQuery | Join): boolean {
  if (PERSISTED_MODEL in q) return true;
  if (q['source-query'] && readsPersisted(q['source-query'])) return true;
  return Array.isArray((q as InnerQuery).joins) && (q as InnerQuery).joins!.some((j) => readsPersisted(j));
}
