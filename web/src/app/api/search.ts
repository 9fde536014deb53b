import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { QueryOf } from './schema';

export type SearchQuery = QueryOf<'/api/search', 'get'>;
export type SearchModel = NonNullable<SearchQuery['models']>[number];

/** One result of `GET /api/search` (src/modules/search/search-result.ts): the keys the app reads. */
export interface SearchResult {
  model: SearchModel;
  id: number;
  name: string;
  description: string | null;
  archived: boolean;
  collection: { id: number | null; name: string | null };
  display: string | null;
  database_id: number | null;
  table_id: number | null;
  table_schema: string | null;
  database_name: string | null;
  last_edited_at: string | null;
  last_editor_common_name: string | null;
  /** Collections: where they are (`/1/2/`). */
  location: string | null;
}

export interface SearchAnswer {
  data: SearchResult[];
  total: number;
  available_models: SearchModel[];
}

export const searchKeys = {
  all: ['search'] as const,
  query: (query: SearchQuery) => ['search', query] as const,
};

/**
 * `GET /api/search`. The request's AbortSignal is TanStack Query's: when the query changes as someone types, the
 * previous one loses its last observer and its request is cancelled, so a slow stale answer never lands.
 */
export function useSearch(query: SearchQuery, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: searchKeys.query(query),
    queryFn: ({ signal }) => api<SearchAnswer>('GET', '/api/search', { query, signal }),
    placeholderData: keepPreviousData,
    enabled: opts.enabled ?? true,
  });
}
