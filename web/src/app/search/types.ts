import type { SearchModel } from '../api/search';

/** The kinds of result a person filters by, in the order shown. */
export const TYPE_FILTERS: Array<{ model: SearchModel; label: string }> = [
  { model: 'dashboard', label: 'Dashboards' },
  { model: 'card', label: 'Questions' },
  { model: 'dataset', label: 'Models' },
  { model: 'metric', label: 'Metrics' },
  { model: 'collection', label: 'Collections' },
  { model: 'table', label: 'Tables' },
  { model: 'database', label: 'Databases' },
];

const ONE: Record<string, string> = {
  dashboard: 'Dashboard',
  card: 'Question',
  dataset: 'Model',
  metric: 'Metric',
  collection: 'Collection',
  table: 'Table',
  database: 'Database',
  snippet: 'Snippet',
};

export const typeLabel = (m: string) => ONE[m] ?? m;
