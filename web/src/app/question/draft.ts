import { cardModel, type Card } from '../api/card';
import { itemPath } from '../api/item';
import type { Settings } from '../../visualizations';

export type CardType = 'question' | 'model' | 'metric';

/** The question being edited: what a save sends (`POST /api/card` or `PUT /api/card/:id`). */
export interface Draft {
  name: string;
  description: string | null;
  type: CardType;
  display: string;
  visualization_settings: Settings;
  dataset_query: Record<string, unknown>;
  collection_id: number | null;
}

export const fromCard = (c: Card): Draft => ({
  name: c.name,
  description: c.description,
  type: c.type,
  display: c.display,
  visualization_settings: c.visualization_settings ?? {},
  dataset_query: asLegacyNative(c.dataset_query) ?? c.dataset_query,
  collection_id: c.collection_id,
});

/**
 * An MBQL 5 native query (`stages: [{"lib/type": "mbql.stage/native", native, "template-tags"}]`, what current
 * clients may save) in the legacy shape the SQL editor edits; null when it is not one.
 */
export function asLegacyNative(q: Record<string, unknown>): NativeQuery | null {
  const stages = q['lib/type'] === 'mbql/query' && Array.isArray(q.stages) ? (q.stages as Array<Record<string, unknown>>) : null;
  const stage = stages?.length === 1 ? stages[0] : null;
  if (!stage || stage['lib/type'] !== 'mbql.stage/native' || typeof stage.native !== 'string') return null;
  const tags = stage['template-tags'];
  return {
    database: typeof q.database === 'number' ? q.database : null,
    type: 'native',
    native: { query: stage.native, 'template-tags': tags && typeof tags === 'object' ? (tags as Record<string, unknown>) : {} },
  };
}

/** A native query (legacy shape, as Metabase's SQL editor saves it). */
export type NativeQuery = {
  database: number | null;
  type: 'native';
  native: { query: string; 'template-tags'?: Record<string, unknown> };
};

export const isNative = (q: Record<string, unknown>): q is NativeQuery =>
  q.type === 'native' && typeof q.native === 'object' && q.native !== null;

export const emptyNative = (database: number | null): NativeQuery => ({
  database,
  type: 'native',
  native: { query: '', 'template-tags': {} },
});

/** What a save or a run of the draft compares: a changed query, display or settings is an unsaved edit. */
export const sameContent = (d: Draft, c: Card) => {
  const saved = fromCard(c);
  return (
    JSON.stringify([d.dataset_query, d.display, d.visualization_settings]) ===
    JSON.stringify([saved.dataset_query, saved.display, saved.visualization_settings])
  );
};

/** Where a saved card opens: `/question/12-orders`, `/model/…`, `/metric/…` (api/item.ts). */
export const cardPath = (c: { id: number; name: string; type: CardType }) => itemPath({ model: cardModel(c), id: c.id, name: c.name });

/** The query's database, legacy or MBQL 5. */
export const databaseOf = (q: Record<string, unknown>): number | null => (typeof q.database === 'number' ? q.database : null);
