import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

/** A named signing key as `/api/embedding/keys` answers it (src/modules/embedding/embedding-keys.dto.ts EmbeddingKeyView). */
export interface EmbeddingKey {
  id: number;
  kid: string;
  name: string;
  masked_secret: string;
  created_at: string;
  revoked_at: string | null;
  /** Only in the answers of create and rotate: the one time the secret is shown in full. */
  secret?: string;
}

export type CreateEmbeddingKeyBody = Dto<'CreateEmbeddingKeyDto'>;

export const embeddingKeyKeys = {
  all: ['embedding-key'] as const,
  list: () => ['embedding-key', 'list'] as const,
};

const path = (kid: string) => `/api/embedding/keys/${encodeURIComponent(kid)}`;

export function useEmbeddingKeys() {
  return useQuery({
    queryKey: embeddingKeyKeys.list(),
    queryFn: ({ signal }) => api<EmbeddingKey[]>('GET', '/api/embedding/keys', { signal }),
  });
}

function useInvalidateKeys() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: embeddingKeyKeys.all });
}

/** `POST /api/embedding/keys`: answers the key with its `secret`, the only time it is shown. */
export function useCreateEmbeddingKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({
    mutationFn: (body: CreateEmbeddingKeyBody) => api<EmbeddingKey>('POST', '/api/embedding/keys', { body }),
    meta: { errors: 'caller' },
    onSuccess: invalidate,
  });
}

/** `POST /api/embedding/keys/:kid/rotate`: a new secret (shown once); tokens signed with the old one fail at once. */
export function useRotateEmbeddingKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({ mutationFn: (kid: string) => api<EmbeddingKey>('POST', `${path(kid)}/rotate`), onSuccess: invalidate });
}

/** `DELETE /api/embedding/keys/:kid`: revoked for good; the kid stays taken. */
export function useRevokeEmbeddingKey() {
  const invalidate = useInvalidateKeys();
  return useMutation({ mutationFn: (kid: string) => api<void>('DELETE', path(kid)), onSuccess: invalidate });
}
