import type { InnerQuery } from '../mbql/types';
import { validateCardQuery } from '../mbql/validate';
import { SOURCE_CARD } from '../mbql/places';
import { mapInnerQueries, PreprocessError, Stage } from './context';
import { persistedRead } from './substitute-persisted-models';

const MAX_DEPTH = 20;

/**
 * `source-table: "card__12"` (in the query or a join) becomes the saved question's own query as a nested
 * `source-query` (a native card as `{native: sql}`), recursively, after the resolver checked the caller may read
 * the card. A card that (indirectly) uses itself is refused; a card's query is validated (mbql/validate.ts) as it is
 * spliced in, its errors naming the card.
 */
export const resolveSourceCards: Stage = async (query, ctx) => {
  if (query.type !== 'query' || !query.query) return query;
  // A model's persisted table holds all its rows: a caller restricted by row policies runs the model's query.
  const restricted = async () => ctx.policies !== undefined && (await ctx.policies.restrictions(query.database)).size > 0;
  /** The card in place of `source-table`: its query nested as `source-query`, or its SQL as `native` (no extra level). */
  /** `at`: the path of the level or join whose source this is (a missing card is named there). */
  const replace = async <T extends { 'source-table'?: number | string }>(node: T, seen: number[], at: string): Promise<T> => {
    if (typeof node['source-table'] !== 'string') return node;
    const source = await cardSource(node['source-table'], seen, `${at}.source-table`);
    return { ...omit(node, 'source-table'), ...source } as T;
  };
  const resolve = async (inner: InnerQuery, seen: number[], path: string): Promise<InnerQuery> => {
    const withJoins = inner.joins
      ? { ...inner, joins: await Promise.all(inner.joins.map((j, i) => replace(j, seen, `${path}.joins[${i}]`))) }
      : inner;
    return replace(withJoins, seen, path);
  };
  const cardSource = async (
    ref: string,
    seen: number[],
    at: string,
  ): Promise<Pick<InnerQuery, 'source-query' | 'native' | 'native-columns'>> => {
    const id = Number(ref.slice('card__'.length));
    if (seen.includes(id) || seen.length > MAX_DEPTH)
      throw new PreprocessError(`Card ${id} refers to itself through its sources.`, undefined, at);
    const card = await ctx.content.card(id);
    if (!card) throw new PreprocessError(`Card ${id} does not exist.`, undefined, at);
    if (card.databaseId !== query.database) throw new PreprocessError(`Card ${id} belongs to another database.`, undefined, at);
    // A persisted model inside a card (a question on a question on the model): its table, as substitute-persisted-models
    // does for the query's own sources.
    const persisted = seen.length && !(await restricted()) ? await ctx.content.persisted?.(id) : null;
    const engine = persisted ? (await ctx.metadata.database(query.database))?.engine : undefined;
    if (persisted && engine) return persistedRead(engine, id, persisted);
    // The card's query is checked as it is spliced in, as the query sent was: the compiler relies on the shapes.
    validateCardQuery(id, card.query);
    // Its saved columns let the outer query use them without listing them in `fields`.
    const columns = card.resultMetadata?.filter((c) => c && typeof c.name === 'string' && typeof c.base_type === 'string');
    if (card.query.type === 'native')
      return { native: card.query.native!.query, ...(columns?.length ? { 'native-columns': columns } : {}) };
    // Marked with its card: a problem found in it later (compiling) names the card, not a stage of the query sent.
    const resolved = await mapInnerQueries(card.query.query!, (q, path) => resolve(q, [...seen, id], path), `card ${id}: query`);
    return { 'source-query': { ...resolved, [SOURCE_CARD]: id } };
  };
  return { ...query, query: await mapInnerQueries(query.query, (q, path) => resolve(q, [], path)) };
};

function omit<T extends object, K extends keyof T>(o: T, key: K): Omit<T, K> {
  const { [key]: _drop, ...rest } = o;
  return rest;
}
