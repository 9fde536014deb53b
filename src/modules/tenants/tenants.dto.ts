import { Matches } from 'class-validator';
import { Bool, IsMap, MaxLen, NonBlankString, Nullable, OneOf } from '../../common/validation/validators';
import type { Tenant } from '../../schema/tenant.entity';
import { SLUG, TENANT_MSG } from './tenant-rules';

export const TENANT_STATUSES = ['all', 'active', 'deactivated'] as const;

export class CreateTenantDto {
  @NonBlankString()
  @MaxLen(255)
  name: string;

  @NonBlankString()
  @Matches(SLUG, { message: TENANT_MSG.slug })
  slug: string;

  @Nullable()
  @IsMap()
  attributes?: Record<string, unknown> | null;
}

export class UpdateTenantDto {
  @Nullable()
  @NonBlankString()
  @MaxLen(255)
  name?: string;

  @Nullable()
  @IsMap()
  attributes?: Record<string, unknown> | null;

  @Nullable()
  @Bool()
  is_active?: boolean;
}

export class ListTenantsQuery {
  @Nullable()
  @OneOf(TENANT_STATUSES)
  status?: (typeof TENANT_STATUSES)[number];
}

/** A tenant as `/api/ee/tenant` answers it. */
export interface TenantView {
  id: number;
  name: string;
  slug: string;
  is_active: boolean;
  member_count: number;
  attributes: Record<string, unknown>;
  tenant_collection_id: number | null;
}

export function toTenantView(t: Tenant, memberCount: number): TenantView {
  return {
    id: t.id,
    name: t.name,
    slug: t.slug,
    is_active: t.is_active,
    member_count: memberCount,
    attributes: t.attributes ?? {},
    tenant_collection_id: t.tenant_collection_id,
  };
}
