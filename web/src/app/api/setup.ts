import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';
import { sessionKeys } from './session';

export type SetupBody = Dto<'SetupDto'>;

/**
 * `POST /api/setup`: the first admin (and the site name), with the setup token; the server signs the new admin in.
 * Session properties change (no setup token any more, the admin's settings readable).
 */
export function useSetup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SetupBody) => api<{ id: string }>('POST', '/api/setup', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: sessionKeys.all }),
  });
}
