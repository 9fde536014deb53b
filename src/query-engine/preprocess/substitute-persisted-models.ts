import type { Engine } from '../types';
import type { PersistedSource } from '../metadata';
import type { InnerQuery, Join } from '../mbql/types';
import { mapInnerQueries, PreprocessError, Stage } from './context';

/** Set on a level whose `native` SQL is the server's own read of a persisted model's table (not SQL someone wrote). */
export const PERSISTED_MODEL = 'qp/persisted-model';

/**
 * `source-table: "card__12"` (in the query or a join) of a model whose result is persisted (Metabase's
 * persisted-info substitution) becomes a read of its table, `SELECT * FROM "<cache schema>"."model_12"`, with the
 * model's columns, instead of the model's own query. The caller must still be allowed to read the card (the same
 * look-up resolve-source-cards makes); a card that is not persisted, or whose table is stale or being first built,
 * is left for resolve-source-cards, which splices in its query.
 */
export const substitutePersistedModels: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query || !ctx.content.persisted) return query;
  // A model's table holds all its rows: a caller restricted by row policies runs the model's query instead.
  if (ctx.policies && (await ctx.policies.restrictions(query.database)).size > 0) return query;
  const persisted = ctx.content.persisted.bind(ctx.content);
  let engine: Engine | undefined;
  const replace = async <T extends { 'source-table'?: number | string }>(node: T): Promise<T> => {
    const ref = node['source-table'];
    if (typeof ref !== 'string' || !ref.startsWith('card__')) return node;
    const id = Number(ref.slice('card__'.length));
    if (!Number.isInteger(id)) return node;
    const source = await persisted(id);
    if (!source) return node;
    // The caller's right to read the model, as when its query is used.
    const card = await ctx.content.card(id);
    if (!card || card.databaseId !== query.database) return node;
    engine ??= (await ctx.metadata.database(query.database))?.engine;
    if (!engine) return node;
    const { 'source-table': _drop, ...rest } = node;
    return { ...rest, ...persistedRead(engine, id, source) } as unknown as T;
  };
  const resolve = async (inner: InnerQuery): Promise<InnerQuery> => {
    const withJoins = inner.joins ? { ...inner, joins: await Promise.all(inner.joins.map((j: Join) => replace(j))) } : inner;
    return replace(withJoins);
  };
  return { ...query, query: await mapInnerQueries(query.query, (q) => resolve(q)) };
};

/** The source fields that read a persisted model's table (also used by resolve-source-cards for models inside cards). */
export function persistedRead(
  engine: Engine,
  cardId: number,
  source: PersistedSource,
): Pick<InnerQuery, 'native' | 'native-columns'> & { [PERSISTED_MODEL]: number } {
  return {
    native: `SELECT * FROM ${quote(engine, source.schema)}.${quote(engine, source.table)}`,
    'native-columns': source.columns,
    [PERSISTED_MODEL]: cardId,
  };
}

/** Names come from the server (cache schema and table names), quoted all the same. */
function quote(engine: Engine, name: string): string {
  if (name.includes('\u0000')) throw new PreprocessError('A persisted table name holds a NUL character.');
  return engine === 'mysql' ? '`' + name.replace(/`/g, '``') + '`' : '"' + name.replace(/"/g, '""') + '"';
}
