import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
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

/** The data permissions graph (src/modules/databases/data-permissions.service.ts). */
export type DataAccess = 'unrestricted' | 'no';
export type NativeAccess = 'write' | 'none';
export type DownloadAccess = 'full' | 'limited' | 'none';
export interface GraphAccess {
  data: DataAccess;
  native: NativeAccess;
  download: { schemas: DownloadAccess };
  upload?: 'yes' | 'no';
}
export interface DataGraph {
  revision: number;
  groups: Record<string, Record<string, GraphAccess>>;
}

export const ADMIN_GROUP_ID = 2;
export const ALL_USERS_GROUP_ID = 1;

export const permissionsKeys = {
  all: ['permissions'] as const,
  groups: () => ['permissions', 'group'] as const,
  group: (id: number) => ['permissions', 'group', id] as const,
  graph: () => ['permissions', 'graph'] as const,
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

/**
 * `PUT /api/permissions/graph` with the revision the edits were made on and only the entries changed; a 409 means
 * someone saved meanwhile (the caller shows it and offers to reload).
 */
export function useSaveDataGraph() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DataGraph) => api<DataGraph>('PUT', '/api/permissions/graph', { body }),
    meta: { errors: 'caller' },
    onSuccess: (graph) => client.setQueryData(permissionsKeys.graph(), graph),
  });
}
