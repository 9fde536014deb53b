import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { dashboardKeys } from './dashboard';
import type { DashboardData, DashcardAction, DashcardCard, TableFields } from './dashboard-types';
import type { Dto } from './schema';

/**
 * `PUT /api/dashboard/:id`: every key optional; `dashcards` and `tabs` replace the lists (new ones with negative ids).
 * The OpenAPI document describes those two as one map (their validator, `UniqueIdMaps`, declares no array type), so
 * they are typed here as the lists src/modules/dashboards/dashcard-layout.ts parses.
 */
export type UpdateDashboardBody = Omit<Dto<'UpdateDashboardDto'>, 'dashcards' | 'tabs'> & {
  dashcards?: Array<Record<string, unknown>>;
  tabs?: Array<{ id: number; name: string }>;
};

/** One entry of `GET /api/revision?entity=dashboard&id=` (src/modules/revisions/revision.view.ts), newest first. */
export interface RevisionEntry {
  id: number;
  description: string | null;
  timestamp: string;
  is_creation: boolean;
  is_reversion: boolean;
  most_recent: boolean;
  user: { id: number; common_name: string } | null;
}

export const revisionKeys = {
  dashboard: (id: number) => ['revision', 'dashboard', id] as const,
};

const invalidateDashboard = (client: ReturnType<typeof useQueryClient>, id: number) =>
  Promise.all([
    client.invalidateQueries({ queryKey: [...dashboardKeys.all, id] }),
    client.invalidateQueries({ queryKey: revisionKeys.dashboard(id) }),
    client.invalidateQueries({ queryKey: ['collection'] }),
  ]);

/** The editor's save, a rename, a move, archiving, embedding: one `PUT /api/dashboard/:id`. */
export function useUpdateDashboard(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDashboardBody) => api<DashboardData>('PUT', `/api/dashboard/${id}`, { body }),
    onSuccess: (saved) => {
      client.setQueryData([...dashboardKeys.all, id], saved);
      return invalidateDashboard(client, id);
    },
  });
}

export function useDashboardRevisions(id: number, enabled: boolean) {
  return useQuery({
    queryKey: revisionKeys.dashboard(id),
    queryFn: ({ signal }) => api<RevisionEntry[]>('GET', '/api/revision', { query: { entity: 'dashboard', id }, signal }),
    enabled,
  });
}

/** `POST /api/revision/revert`: the dashboard as it was at that revision (a new revision records the reversion). */
export function useRevertDashboard(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: number) =>
      api<unknown>('POST', '/api/revision/revert', { body: { entity: 'dashboard', id, revision_id: revisionId } }),
    onSuccess: () => invalidateDashboard(client, id),
  });
}

export type CopyDashboardBody = Dto<'CopyDashboardDto'>;

/** `POST /api/dashboard/:id/copy`: a deep copy also copies its questions into the target collection. */
export function useCopyDashboard(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CopyDashboardBody) => api<{ id: number; name: string }>('POST', `/api/dashboard/${id}/copy`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: dashboardKeys.all }), client.invalidateQueries({ queryKey: ['collection'] })]),
  });
}

/** `GET /api/table/:id/query_metadata`: the fields of a question's table, each a column a filter can narrow. */
export type { TableFields } from './dashboard-types';

export function useTableFields(tableId: number | null | undefined) {
  return useQuery({
    queryKey: ['table', tableId, 'query_metadata'],
    queryFn: ({ signal }) => api<TableFields>('GET', `/api/table/${tableId}/query_metadata`, { signal }),
    enabled: typeof tableId === 'number',
    staleTime: 5 * 60_000,
  });
}

/** `GET /api/dashboard/params/valid-filter-fields`: for each filtered field, the fields of the others that can narrow it. */
export function useValidFilterFields(filtered: number[], filtering: number[]) {
  return useQuery({
    queryKey: [...dashboardKeys.all, 'valid-filter-fields', filtered, filtering],
    queryFn: ({ signal }) =>
      api<Record<string, number[]>>('GET', '/api/dashboard/params/valid-filter-fields', { query: { filtered, filtering }, signal }),
    enabled: filtered.length > 0 && filtering.length > 0,
  });
}

/** A saved question or model for the picker (`GET /api/search?models=card&models=dataset`). */
export interface SearchCard {
  id: number;
  name: string;
  model: string;
  display?: string;
  collection?: { name?: string | null } | null;
  /** Cards and dashboards only: whether the caller may change it. */
  can_write?: boolean;
}

export function useCardSearch(q: string) {
  return useSearchItems(['card', 'dataset'], q);
}

/** Items of the given models by name (`GET /api/search`), e.g. the targets of a click behaviour. */
export function useSearchItems(models: string[], q: string, enabled = true) {
  return useQuery({
    queryKey: ['search', models, q],
    queryFn: ({ signal }) => api<{ data: SearchCard[] }>('GET', '/api/search', { query: { models, q: q || undefined, limit: 50 }, signal }),
    enabled,
  });
}

/** `GET /api/card/:id`: the chosen question, with what a dashcard draws (display, settings, columns). */
export const getCard = (id: number) => api<DashcardCard>('GET', `/api/card/${id}`);

/** `GET /api/action`: the actions the caller may see, for an action button. */
export function useActions(enabled: boolean) {
  return useQuery({
    queryKey: ['action', 'list'],
    queryFn: ({ signal }) => api<DashcardAction[]>('GET', '/api/action', { signal }),
    enabled,
  });
}
