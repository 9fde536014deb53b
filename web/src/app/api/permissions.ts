import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from './client';
import type { DataGraph, GraphUpdate, ImpersonationPolicy, RowPolicy, RowPolicyBody } from './permissions-graph';
import type { Dto } from './schema';
import { userKeys } from './user';

/** `GET /api/permissions/group` (src/modules/permissions/permissions.repository.ts GroupRow). */
export interface Group {
  id: number;
  name: string;
  magic_group_type: 'all-internal-users' | 'admin' | null;
  member_count: number;
}

/** A member as `GET /api/permissions/group/:id` lists them (permissions.dto.ts MemberView). */
export interface Member {
  user_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  common_name: string;
  membership_id: number;
  group_id: number;
  is_group_manager: boolean;
  is_superuser: boolean;
}

export type GroupDetail = Group & { members: Member[] };

/** The data permissions graph's types (a file of its own, so pure helpers read them without the client). */
export type * from './permissions-graph';

export const ADMIN_GROUP_ID = 2;
export const ALL_USERS_GROUP_ID = 1;

export const permissionsKeys = {
  all: ['permissions'] as const,
  groups: () => ['permissions', 'group'] as const,
  group: (id: number) => ['permissions', 'group', id] as const,
  graph: () => ['permissions', 'graph'] as const,
  policies: () => ['permissions', 'gtap'] as const,
  impersonations: () => ['permissions', 'impersonation'] as const,
  attributes: () => ['permissions', 'user-attributes'] as const,
};

export function useGroups() {
  return useQuery({
    queryKey: permissionsKeys.groups(),
    queryFn: ({ signal }) => api<Group[]>('GET', '/api/permissions/group', { signal }),
  });
}

export function useGroup(id: number) {
  return useQuery({
    queryKey: permissionsKeys.group(id),
    queryFn: ({ signal }) => api<GroupDetail>('GET', `/api/permissions/group/${id}`, { signal }),
  });
}

/** Groups and their members changed: the group lists, the graph (a new group has a row) and users' group lists. */
function useInvalidateGroups() {
  const client = useQueryClient();
  return () =>
    Promise.all([client.invalidateQueries({ queryKey: permissionsKeys.all }), client.invalidateQueries({ queryKey: userKeys.all })]);
}

export function useCreateGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: Dto<'GroupDto'>) => api<Group>('POST', '/api/permissions/group', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(),
  });
}

export function useRenameGroup(id: number) {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: Dto<'GroupDto'>) => api<Group>('PUT', `/api/permissions/group/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => invalidate(),
  });
}

export function useDeleteGroup() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/api/permissions/group/${id}`),
    onSuccess: () => invalidate(),
  });
}

export function useAddMember() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (body: Dto<'AddMembershipDto'>) => api<unknown>('POST', '/api/permissions/membership', { body }),
    onSuccess: () => invalidate(),
  });
}

export function useRemoveMember() {
  const invalidate = useInvalidateGroups();
  return useMutation({
    mutationFn: (membershipId: number) => api<void>('DELETE', `/api/permissions/membership/${membershipId}`),
    onSuccess: () => invalidate(),
  });
}

export function useDataGraph() {
  return useQuery({
    queryKey: permissionsKeys.graph(),
    queryFn: ({ signal }) => api<DataGraph>('GET', '/api/permissions/graph', { signal }),
    // A draft is made on top of this revision: refetching it under the admin's edits would hide a conflict.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** Every row policy (`GET /api/mt/gtap`): which group's tables are under row and column security. */
export function useRowPolicies() {
  return useQuery({
    queryKey: permissionsKeys.policies(),
    queryFn: ({ signal }) => api<RowPolicy[]>('GET', '/api/mt/gtap', { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** Every connection impersonation policy (`GET /api/ee/advanced-permissions/impersonation`). */
export function useImpersonations() {
  return useQuery({
    queryKey: permissionsKeys.impersonations(),
    queryFn: ({ signal }) => api<ImpersonationPolicy[]>('GET', '/api/ee/advanced-permissions/impersonation', { signal }),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
}

/** The user attribute keys people have (`GET /api/mt/user/attributes`), offered by the policy editors. */
export function useUserAttributeKeys() {
  return useQuery({
    queryKey: permissionsKeys.attributes(),
    queryFn: ({ signal }) => api<string[]>('GET', '/api/mt/user/attributes', { signal }),
  });
}

/** A row policy to store for a group and table (`null`: none; the server removes it with the table's new view-data). */
export interface PolicyChange {
  group_id: number;
  table_id: number;
  policy: RowPolicyBody | null;
}

/**
 * Saves the data permissions in one `PUT /api/permissions/graph`, one transaction on the server: the revision the
 * edits were made on (a 409 means someone saved meanwhile: the caller shows it and offers to reload), only the entries
 * changed, the impersonation policies set and the row policies set (`sandboxes`). A table moved off row and column
 * security loses its policy with the same PUT.
 */
export function useSaveDataPermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ graph, policies }: { graph: GraphUpdate; policies: PolicyChange[] }) => {
      const sandboxes = policies.flatMap((c) => (c.policy ? [{ group_id: c.group_id, table_id: c.table_id, ...c.policy }] : []));
      const body: GraphUpdate = { ...graph, ...(sandboxes.length ? { sandboxes } : {}) };
      if (Object.keys(graph.groups).length || graph.impersonations?.length || sandboxes.length)
        await api<unknown>('PUT', '/api/permissions/graph', { body, query: { 'skip-graph': true } });
    },
    meta: { errors: 'caller' },
    // What the server holds is read again, but not after a conflict, which the admin resolves by reloading (their
    // edits would otherwise sit on a revision they never saw).
    onSettled: (_data, error) =>
      isApiError(error) && error.status === 409
        ? undefined
        : Promise.all(
            [permissionsKeys.graph(), permissionsKeys.policies(), permissionsKeys.impersonations()].map((queryKey) =>
              client.invalidateQueries({ queryKey }),
            ),
          ),
  });
}

/** A saved question a policy may use; a SQL question's template tags are what attributes fill in. */
export interface PolicyQuestion {
  id: number;
  name: string;
  type: string;
  dataset_query?: {
    type?: string;
    native?: { 'template-tags'?: Record<string, { name: string; type: string; 'display-name'?: string }> };
  };
}

/** The saved questions on a database (`GET /api/card?f=database`): what a policy may put in place of a table. */
export function useQuestionsOf(db: number, enabled: boolean) {
  return useQuery({
    queryKey: ['card', 'database', db] as const,
    queryFn: ({ signal }) => api<PolicyQuestion[]>('GET', '/api/card', { query: { f: 'database', model_id: db }, signal }),
    enabled,
  });
}

/** Every table's id and database (`GET /api/table`): which database a row policy's table is in. */
export function useTableDatabases() {
  return useQuery({
    queryKey: ['table', 'list'] as const,
    queryFn: ({ signal }) => api<Array<{ id: number; db_id: number }>>('GET', '/api/table', { signal }),
  });
}
