import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { dashboardKeys } from './dashboard';
import type { DashboardData, QueryAnswer } from './dashboard-view';

/** A link of an x-ray's `related` block: another x-ray, at its application path (`/auto/dashboard/...`). */
export interface RelatedLink {
  url: string;
  title: string;
  description?: string;
}

/**
 * An x-ray: an unsaved dashboard in the shape of GET /api/dashboard/:id (src/modules/automagic/xray-view.ts), no id,
 * negative dashcard and card ids, its sections as text cards, and its own keys: the related x-rays by kind (`zoom-in`,
 * `zoom-out`, `linking-to`, `linked-from`, `compare`) and where the cards `show` left out are (`more`).
 */
export interface XrayDashboard extends Omit<DashboardData, 'id'> {
  id: null;
  transient_name: string;
  related: Record<string, RelatedLink[]>;
  more: string | null;
}

export const automagicKeys = {
  all: ['automagic'] as const,
  /** `path`: what follows `/auto/dashboard/` in the application's URL, with its query string. */
  one: (path: string) => [...automagicKeys.all, path] as const,
  card: (path: string, dashcardId: number, body: unknown) => [...automagicKeys.all, path, 'card', dashcardId, body] as const,
};

/**
 * The x-ray at `/auto/dashboard/<path>`: the application's path is the API's (`table/1`, `segment/2/compare/table/1`,
 * `adhoc/<base64>`, `...?show=all`), under GET /api/automagic-dashboards/.
 */
export function useXray(path: string) {
  return useQuery({
    queryKey: automagicKeys.one(path),
    queryFn: ({ signal }) => api<XrayDashboard>('GET', `/api/automagic-dashboards/${path}`, { signal }),
    // An x-ray is computed anew on each request: the one drawn stays while the person looks at it.
    staleTime: 10 * 60_000,
  });
}

/** `POST /api/dataset`: an x-ray card's query with its filters' values (`parameters`, targets of its mappings). */
export const runXrayCard = (query: Record<string, unknown>, signal: AbortSignal) =>
  api<QueryAnswer>('POST', '/api/dataset', { body: query, signal });

/** `POST /api/dashboard/save` (or `.../save/collection/:id`): the x-ray becomes a dashboard with a question per card. */
export function useSaveXray() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ dashboard, collectionId }: { dashboard: XrayDashboard; collectionId: number | null }) =>
      api<{ id: number; name: string }>(
        'POST',
        collectionId === null ? '/api/dashboard/save' : `/api/dashboard/save/collection/${collectionId}`,
        {
          body: dashboard,
        },
      ),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: dashboardKeys.all }), client.invalidateQueries({ queryKey: ['collection'] })]),
  });
}
