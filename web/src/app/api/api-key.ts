import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

/** An API key as `/api/api-key` answers it (src/modules/api-keys/api-keys.dto.ts ApiKeyView). */
export interface ApiKey {
  id: number;
  name: string;
  group: { id: number; name: string };
  creator_id: number;
  masked_key: string;
  created_at: string;
  updated_at: string;
  updated_by: { id: number; common_name: string } | null;
  /** Only in the answers of create and regenerate: the key is never stored, so this is the one time it is shown. */
  unmasked_key?: string;
}

export type CreateApiKeyBody = Dto<'CreateApiKeyDto'>;
export type UpdateApiKeyBody = Dto<'UpdateApiKeyDto'>;

export const apiKeyKeys = {
  all: ['api-key'] as const,
  list: () => ['api-key', 'list'] as const,
};

export function useApiKeys() {
  return useQuery({ queryKey: apiKeyKeys.list(), queryFn: ({ signal }) => api<ApiKey[]>('GET', '/api/api-key', { signal }) });
}

function useInvalidateKeys() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: apiKeyKeys.all });
}

/** `POST /api/api-key`: answers the key with `unmasked_key`, the only time it is shown. */
export function useCreateApiKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => api<ApiKey>('POST', '/api/api-key', { body }),
    meta: { errors: 'caller' },
    onSuccess: invalidate,
  });
}

export function useUpdateApiKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateApiKeyBody }) => api<ApiKey>('PUT', `/api/api-key/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: invalidate,
  });
}

/** `PUT /api/api-key/:id/regenerate`: a new key (shown once); the old one stops working at once. */
export function useRegenerateApiKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: (id: number) => api<ApiKey>('PUT', `/api/api-key/${id}/regenerate`),
    onSuccess: invalidate,
  });
}

export function useDeleteApiKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({ mutationFn: (id: number) => api<void>('DELETE', `/api/api-key/${id}`), onSuccess: invalidate });
}
