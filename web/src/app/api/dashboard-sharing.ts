import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { dashboardKeys } from './dashboard';
import type { Dto } from './schema';

/** `POST /api/dashboard/:id/public_link` (superusers, public sharing on): the link's uuid, the same one if it exists. */
export function useCreateDashboardLink(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<{ uuid: string }>('POST', `/api/dashboard/${id}/public_link`),
    onSuccess: () => client.invalidateQueries({ queryKey: dashboardKeys.all }),
  });
}

export type PreviewTokenBody = Dto<'PreviewTokenDto'>;

/**
 * `POST /api/preview-embed/token` (admins): a token for `/api/preview-embed/...`, signed by the server with the
 * embedding key (which it never shows again once made), carrying the rules being tried (`_embedding_params`) and
 * the locked values. Kept a few minutes: the token lives ten.
 */
export function usePreviewToken(body: PreviewTokenBody, enabled: boolean) {
  return useQuery({
    queryKey: ['preview-embed', 'token', body],
    queryFn: ({ signal }) => api<{ token: string }>('POST', '/api/preview-embed/token', { body, signal }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
