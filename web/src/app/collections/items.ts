import type { ItemModel } from '../api/collection';

/** How each kind of item is named to a person. */
export const MODEL_LABEL: Record<string, string> = {
  card: 'Question',
  dataset: 'Model',
  metric: 'Metric',
  dashboard: 'Dashboard',
  collection: 'Collection',
  table: 'Table',
  database: 'Database',
  snippet: 'Snippet',
  timeline: 'Timeline',
  pulse: 'Subscription',
};

export const modelLabel = (m: ItemModel | string) => MODEL_LABEL[m] ?? m;

/** What a collection page can move, trash and bookmark: the rest (timelines, snippets) live elsewhere. */
export const MOVABLE = new Set(['card', 'dataset', 'metric', 'dashboard', 'collection']);

export const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' }) : '';
