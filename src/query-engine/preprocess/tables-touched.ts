import type { InnerQuery, Join } from '../mbql/types';

/**
 * The warehouse tables a preprocessed query reads: the source table of every level and every join, nested source
 * queries included. Run after source cards are spliced in, segments and metrics expanded and implicit joins made
 * explicit, that is every table whose rows reach the result, in the order first met.
 */
export function tablesTouched(query: InnerQuery): number[] {
  const out = new Set<number>();
  const visit = (level: InnerQuery | Join | undefined) => {
    if (!level || typeof level !== 'object') return;
    if (typeof level['source-table'] === 'number') out.add(level['source-table']);
    visit(level['source-query']);
    if ('joins' in level && Array.isArray(level.joins)) level.joins.forEach(visit);
  };
  visit(query);
  return [...out];
}
