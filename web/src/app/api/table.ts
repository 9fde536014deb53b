import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { databaseKeys, type MetadataTable } from './database';
import type { Dto } from './schema';

export type UpdateTableBody = Dto<'UpdateTableDto'>;

export const tableKeys = {
  all: ['table'] as const,
};

/**
 * `PUT /api/table/:id` (admins): display name, description, visibility. The admin console reads tables through their
 * database's metadata, so that is what a change invalidates.
 */
export function useUpdateTable(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateTableBody) => api<MetadataTable>('PUT', `/api/table/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: databaseKeys.all }), client.invalidateQueries({ queryKey: tableKeys.all })]),
  });
}
