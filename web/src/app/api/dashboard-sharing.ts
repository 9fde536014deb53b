import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

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
