import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { cardKeys } from './card';

/** An entry of `GET /api/revision` (src/modules/revisions/revision.view.ts), newest first: the keys the app reads. */
export interface Revision {
  id: number;
  description: string | null;
  timestamp: string;
  is_creation: boolean;
  is_reversion: boolean;
  most_recent: boolean;
  user: { id: number; common_name: string } | null;
}

export const revisionKeys = {
  all: ['revision'] as const,
  of: (entity: 'card' | 'dashboard', id: number) => ['revision', entity, id] as const,
};

export function useRevisions(entity: 'card' | 'dashboard', id: number) {
  return useQuery({
    queryKey: revisionKeys.of(entity, id),
    queryFn: ({ signal }) => api<Revision[]>('GET', '/api/revision', { query: { entity, id }, signal }),
  });
}

/** `POST /api/revision/revert`: the object goes back to that revision (a new revision records the revert). */
export function useRevert(entity: 'card' | 'dashboard', id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (revisionId: number) => api<unknown>('POST', '/api/revision/revert', { body: { entity, id, revision_id: revisionId } }),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: revisionKeys.all }), client.invalidateQueries({ queryKey: cardKeys.all })]),
  });
}
