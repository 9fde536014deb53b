/**
 * Places in a query, as errors name them: the legacy path of a clause (`query.source-query.filter.and[1]`), which an
 * MBQL 5 query's errors turn into the place as it was sent (mbql5.ts placeAsSent: `stages[0].filters[1]`).
 */

/** The key resolve-source-cards marks a saved question's query with where it becomes a source query (as Metabase does). */
export const SOURCE_CARD = 'qp/stage-is-from-source-card';

/**
 * The legacy path of a query level: `query` for the top one, `<parent>.source-query` for a source query,
 * `<parent>.joins[i].source-query` for a join's. A saved question's query spliced in as a source (marked with
 * SOURCE_CARD) is named after its card: `card 12: query`, a place of the card, not of the query sent.
 */
export function levelPath(level: object, parentPath: string, key: string): string {
  const card = (level as Record<string, unknown>)[SOURCE_CARD];
  return typeof card === 'number' ? `card ${card}: query` : `${parentPath}.${key}`;
}
