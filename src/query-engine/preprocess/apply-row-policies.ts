import type { DatasetQuery, Filter, InnerQuery, Join } from '../mbql/types';
import { SOURCE_CARD } from '../mbql/places';
import { addImplicitJoins } from './add-implicit-joins';
import { carriesSql } from './carries-sql';
import { mapInnerQueries, PreprocessContext, PreprocessError } from './context';
import type { MetadataSnapshot } from '../compile/contract';
import { loadMetadata } from './load-metadata';
import { restrictionFilter, type NativeQuestion, type TableRestriction } from './row-policies';
import { PERSISTED_MODEL } from './substitute-persisted-models';

/** The stage's state (index.ts PreparedQuery). */
type Prepared = { query: DatasetQuery; metadata?: MetadataSnapshot };

/**
 * Row and column security (Metabase's sandboxing middleware), once sources, implicit joins and fields are resolved:
 * every use of a restricted table, as a level's source or as a join (explicit or implicit, at any depth, saved
 * questions used as sources included), sees only what its policies let through.
 * - Filter policies: a level's source table is filtered in the level's WHERE (left and inner joins keep the
 *   source's rows as they are, so filtering them first or last is the same); a joined table in its join condition.
 * - A question policy: the question's query replaces the table (a source query), so only its rows and its columns
 *   can be read; the query's metadata is then loaded again for the tables the question reads.
 * SQL someone wrote on such a database is refused: it could read any row.
 */
export async function applyRowPolicies<T extends Prepared>(state: T, ctx: PreprocessContext): Promise<T> {
  const query: DatasetQuery = state.query;
  if (!ctx.policies) return state;
  const restricted = await ctx.policies.restrictions(query.database);
  if (restricted.size === 0) return state;
  if (carriesSql(query) || (query.query && readsPersisted(query.query)))
    throw new PreprocessError(
      'Native queries are not allowed on this database: your access to its data is restricted by a row security policy.',
    );
  if (!query.query || !state.metadata) return state;
  const questions = new Map<number, InnerQuery>();
  for (const r of restricted.values()) {
    if ((!r.question && !r.nativeQuestion) || !usesTable(query.query, r.tableId)) continue;
    questions.set(
      r.tableId,
      r.nativeQuestion ? await nativeQuestionSource(r.nativeQuestion, ctx) : await questionQuery(r, query.database, ctx),
    );
  }
  const inner = await mapInnerQueries(query.query, (level) => restrictLevel(level, restricted, questions));
  const metadata = questions.size ? await loadMetadata(inner, ctx.metadata, query.database) : state.metadata;
  return { ...state, query: { ...query, query: inner }, metadata };
}

/** The question's query with its conditions as a filter and its own implicit joins, ready to stand in for the table. */
async function questionQuery(r: TableRestriction, dbId: number, ctx: PreprocessContext): Promise<InnerQuery> {
  const q = r.question!;
  const parts = q.parts.map((p) => {
    const conditions = restrictionFilter({ ...r, filters: [{ group: p.group, conditions: p.conditions }] }, (id) => ['field', id, null]);
    return p.filter && conditions ? both(p.filter, conditions) : (p.filter ?? conditions);
  });
  // A part without any filter lets every row of the question through: so does their union.
  const filter = parts.some((p) => !p) ? undefined : parts.length === 1 ? parts[0]! : (['or', ...parts] as Filter);
  const own: InnerQuery = filter ? { ...q.query, filter } : q.query;
  if (typeof own['source-table'] !== 'number' && !own['source-query'])
    throw new PreprocessError(`The question of the row security policy of groups ${q.groups.join(', ')} must read a table.`);
  const meta = await loadMetadata(own, ctx.metadata, dbId);
  return { ...addImplicitJoins(own, meta), [SOURCE_CARD]: q.cardIds[0] } as InnerQuery;
}

/**
 * A SQL question's source: its SQL with its template tags filled in from the caller's attributes (bound values, as
 * every value is), marked as the policy's so that the caller, who may not write SQL, may run it.
 */
async function nativeQuestionSource(q: NativeQuestion, ctx: PreprocessContext): Promise<InnerQuery> {
  if (!ctx.nativeSql) throw new PreprocessError(`The SQL question of the row security policy of group ${q.group} cannot run here.`);
  const parameters = q.bindings.map((b) => {
    if (b.value === undefined || b.value === null) throw new PreprocessError(`Query requires user attribute \`${b.attribute}\``);
    return { type: 'category', target: [b.kind, ['template-tag', b.tag]], value: b.value };
  });
  const { sql, params } = await ctx.nativeSql(q.query, parameters);
  return {
    native: sql,
    'native-params': params,
    ...(q.columns.length ? { 'native-columns': q.columns } : {}),
    'qp/row-policy-card': q.cardId,
  };
}

/** A source table replaced by the policy's question: its query as a source query, or its SQL in the table's place. */
function replaced<T extends InnerQuery | Join>(node: T, question: InnerQuery): T {
  const { 'source-table': _table, ...rest } = node;
  return (question.native !== undefined ? { ...rest, ...question } : { ...rest, 'source-query': question }) as T;
}

function restrictLevel(
  level: InnerQuery,
  restricted: ReadonlyMap<number, TableRestriction>,
  questions: ReadonlyMap<number, InnerQuery>,
): InnerQuery {
  let out = level;
  const tableId = level['source-table'];
  const source = typeof tableId === 'number' ? restricted.get(tableId) : undefined;
  if (source && questions.has(source.tableId)) {
    out = replaced(out, questions.get(source.tableId)!);
  } else if (source) {
    const filter = restrictionFilter(source, (id) => ['field', id, null]);
    if (filter) out = { ...out, filter: both(out.filter, filter) };
  }
  if (Array.isArray(level.joins)) out = { ...out, joins: level.joins.map((j) => restrictJoin(j, restricted, questions)) };
  return out;
}

function restrictJoin(join: Join, restricted: ReadonlyMap<number, TableRestriction>, questions: ReadonlyMap<number, InnerQuery>): Join {
  const r = typeof join['source-table'] === 'number' ? restricted.get(join['source-table']) : undefined;
  if (!r) return join;
  const question = questions.get(r.tableId);
  if (question) return replaced(join, question);
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

/** Whether any level or join reads the table. */
function usesTable(q: InnerQuery | Join, tableId: number): boolean {
  if (q['source-table'] === tableId) return true;
  if (q['source-query'] && usesTable(q['source-query'], tableId)) return true;
  return Array.isArray((q as InnerQuery).joins) && (q as InnerQuery).joins!.some((j) => usesTable(j, tableId));
}

/** A persisted model's table holds every row of the model: a restricted caller must go through its query instead. */
function readsPersisted(q: InnerQuery | Join): boolean {
  if (PERSISTED_MODEL in q) return true;
  if (q['source-query'] && readsPersisted(q['source-query'])) return true;
  return Array.isArray((q as InnerQuery).joins) && (q as InnerQuery).joins!.some((j) => readsPersisted(j));
}
