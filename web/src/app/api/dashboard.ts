import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

/** Entries of `GET /api/dashboard/public` and `/api/dashboard/embeddable` (admins; src/modules/dashboards/dashboards.service.ts). */
export interface SharedDashboard {
  id: number;
  name: string;
  public_uuid?: string;
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  public: () => ['dashboard', 'public'] as const,
  embeddable: () => ['dashboard', 'embeddable'] as const,
};

/** Dashboards with a public link; 400 while public sharing is off (`enabled` false skips the call). */
export function usePublicDashboards(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.public(),
    queryFn: ({ signal }) => api<SharedDashboard[]>('GET', '/api/dashboard/public', { signal }),
    enabled,
  });
}

/** Dashboards with static embedding on; 400 while static embedding is off. */
export function useEmbeddableDashboards(enabled: boolean) {
  return useQuery({
    queryKey: dashboardKeys.embeddable(),
    queryFn: ({ signal }) => api<SharedDashboard[]>('GET', '/api/dashboard/embeddable', { signal }),
    enabled,
  });
}

/** `DELETE /api/dashboard/:id/public_link`. */
export function useRevokeDashboardLink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/api/dashboard/${id}/public_link`),
    onSuccess: () => client.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
}

export type CreateDashboardBody = Dto<'CreateDashboardDto'>;

/** `POST /api/dashboard`: a new, empty dashboard in a collection (a form shows the errors). */
export function useCreateDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDashboardBody) => api<{ id: number; name: string }>('POST', '/api/dashboard', { body }),
    meta: { errors: 'caller' },
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: dashboardKeys.all }), client.invalidateQueries({ queryKey: ['collection'] })]),
  });
}
