import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { permissionsKeys } from './permissions';
import type { Dto } from './schema';

/** A tenant as `/api/ee/tenant` answers it (src/modules/tenants/tenants.dto.ts TenantView). */
export interface Tenant {
  id: number;
  name: string;
  slug: string;
  is_active: boolean;
  member_count: number;
  attributes: Record<string, unknown>;
  tenant_collection_id: number | null;
}

export const tenantKeys = { all: ['tenant'] as const };

/** Every tenant, active or not (`GET /api/ee/tenant?status=all`). */
export function useTenants(enabled = true) {
  return useQuery({
    queryKey: tenantKeys.all,
    queryFn: ({ signal }) => api<{ data: Tenant[] }>('GET', '/api/ee/tenant', { query: { status: 'all' }, signal }).then((r) => r.data),
    enabled,
  });
}

/** A new tenant comes with its group: the groups are read again too. */
export function useCreateTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: Dto<'CreateTenantDto'>) => api<Tenant>('POST', '/api/ee/tenant', { body }),
    meta: { errors: 'caller' },
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: tenantKeys.all }),
        client.invalidateQueries({ queryKey: permissionsKeys.groups() }),
      ]),
  });
}

/** Rename, or (de)activate: a deactivated tenant's people are deactivated with it. */
export function useUpdateTenant() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: Dto<'UpdateTenantDto'> & { id: number }) => api<Tenant>('PUT', `/api/ee/tenant/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: tenantKeys.all }),
  });
}
