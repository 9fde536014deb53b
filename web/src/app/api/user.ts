import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto, QueryOf } from './schema';

/** `GET /api/user/current` (the server's UserView): the keys the app reads. */
export interface CurrentUser {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  common_name: string | null;
  is_superuser: boolean;
  personal_collection_id: number | null;
}

export const userKeys = {
  all: ['user'] as const,
  current: () => ['user', 'current'] as const,
  list: (query: UserListQuery) => ['user', 'list', query] as const,
};

/** The signed-in user: asked by the shell of every page, and by main.tsx before the shell's code has even loaded. */
export const currentUserQuery = {
  queryKey: userKeys.current(),
  queryFn: ({ signal }: { signal: AbortSignal }) => api<CurrentUser>('GET', '/api/user/current', { signal }),
};

export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** A user as `GET /api/user` and `POST`/`PUT /api/user/:id` answer it (src/modules/users/user.view.ts). */
export interface User extends CurrentUser {
  is_active: boolean;
  last_login: string | null;
  date_joined: string;
  sso_source: string | null;
  login_attributes: Record<string, unknown> | null;
  /** What the last JWT or SAML sign-in brought; the administrator's `login_attributes` win per key. */
  jwt_attributes?: Record<string, unknown> | null;
  /** Every attribute row-level rules read, with where it comes from: `user` (set here), `jwt` (sign-in), `system`. */
  structured_attributes?: Record<string, { source: 'user' | 'jwt' | 'system'; frozen: boolean; value: unknown; original?: unknown }>;
  user_group_memberships: Array<{ id: number; is_group_manager: boolean }>;
  group_ids: number[];
}

export type UserListQuery = QueryOf<'/api/user', 'get'>;
export type CreateUserBody = Dto<'CreateUserDto'>;
export type UpdateUserBody = Dto<'UpdateUserDto'>;

/** Metabase's page: `limit` and `offset` echoed. */
export interface UserPage {
  data: User[];
  total: number;
  limit: number | null;
  offset: number | null;
}

/** One page of people, searched and paged on the server; the page shown stays while the next one loads. */
export function useUsers(query: UserListQuery) {
  return useQuery({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => api<UserPage>('GET', '/api/user', { query, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Any change to a user: every list and the current user (a name, a group) may show it. */
function useInvalidateUsers() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: userKeys.all }),
      // Group member counts and member lists.
      client.invalidateQueries({ queryKey: ['permissions', 'group'] }),
    ]);
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: CreateUserBody) => api<User>('POST', '/api/user', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(),
  });
}

export function useUpdateUser(id: number) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: UpdateUserBody) => api<User>('PUT', `/api/user/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(),
  });
}

/** `DELETE /api/user/:id` deactivates (the row stays, sessions end); `PUT /api/user/:id/reactivate` brings them back. */
export function useSetUserActive() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }): Promise<unknown> =>
      active ? api<User>('PUT', `/api/user/${id}/reactivate`) : api<{ success: boolean }>('DELETE', `/api/user/${id}`),
    onSuccess: () => invalidate(),
  });
}

/** An admin sets someone else's password (`PUT /api/user/:id/password`, 204): their other sessions end. */
export function useSetPassword(id: number) {
  return useMutation({
    mutationFn: (password: string) =>
      api<void>('PUT', `/api/user/${id}/password`, { body: { password } satisfies Dto<'ChangePasswordDto'> }),
    meta: { errors: 'caller' },
  });
}
