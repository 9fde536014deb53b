import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import type { TableMetadata } from './columns';
import type { Mbql5Query } from './types';

/** The notebook's calls. Shapes: src/modules/databases/databases.service.ts list, tables/table-metadata.service.ts, search. */

export interface NotebookTable {
  id: number;
  db_id: number;
  name: string;
  display_name: string;
  schema: string | null;
}
export interface NotebookDatabase {
  id: number;
  name: string;
  tables: NotebookTable[];
}

export const notebookKeys = {
  databases: ['database', 'list', 'tables'] as const,
  metadata: (id: number | string) => ['table', id, 'query_metadata'] as const,
  sources: (q: string) => ['search', 'notebook-sources', q] as const,
};

/** `GET /api/database?include=tables`: the databases the caller may query, with their shown tables. */
export function useDatabasesWithTables() {
  return useQuery({
    queryKey: notebookKeys.databases,
    queryFn: ({ signal }) =>
      api<{ data: NotebookDatabase[] }>('GET', '/api/database', { query: { include: 'tables' }, signal }).then((r) => r.data),
    staleTime: 60_000,
  });
}

/** `GET /api/table/:id/query_metadata`, or `card__:id` for a saved question or model used as data. */
export const tableMetadata = (id: number | string, signal?: AbortSignal) =>
  api<TableMetadata>('GET', `/api/table/${id}/query_metadata`, { signal });

export function useTableMetadata(id: number | string | undefined) {
  return useQuery({
    queryKey: notebookKeys.metadata(id ?? 0),
    queryFn: ({ signal }) => tableMetadata(id!, signal),
    enabled: id !== undefined,
    staleTime: 60_000,
  });
}

/** A saved question or model that can be used as data (`GET /api/search`, search-result.ts). */
export interface SourceCard {
  id: number;
  name: string;
  model: 'card' | 'dataset' | 'metric';
  database_id: number | null;
  collection: { name: string | null };
}

/** Saved questions and models matching what is typed (all of them, most relevant first, when nothing is). */
export function useSourceCards(q: string) {
  return useQuery<SourceCard[]>({
    queryKey: notebookKeys.sources(q),
    queryFn: ({ signal }) =>
      api<{ data: SourceCard[] }>('GET', '/api/search', {
        query: { models: ['card', 'dataset'], ...(q.trim() ? { q: q.trim() } : {}), limit: 50 },
        signal,
      }).then((r) => r.data),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** `POST /api/dataset` results (COMPAT.md "Query results"): the keys the preview reads. */
export interface DatasetResult {
  status: 'completed' | 'failed';
  error?: string;
  row_count: number;
  data: { rows: unknown[][]; cols: Array<{ name: string; display_name: string; base_type: string }> };
}

/** The failure of a query that the API answered (202 `status: failed`), as an error to show. */
export class QueryFailed extends Error {}

/** Runs a query; a failed one (the server answers 202 with `status: "failed"`) throws QueryFailed with its message. */
export async function runQuery(query: Mbql5Query, signal?: AbortSignal): Promise<DatasetResult> {
  const result = await api<DatasetResult>('POST', '/api/dataset', { body: query, signal });
  if (result.status === 'failed') throw new QueryFailed(result.error ?? 'The query failed.');
  return result;
}
