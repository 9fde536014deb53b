import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { commonName, iso } from '../../common/views/wire-values';
import { User } from '../../schema/user.entity';
import { structuredAttributes, systemAttributes, type StructuredAttribute } from './user-attributes';

/** The user as the API shows it: the keys Metabase's GET /api/user/current carries (which every client reads first), and more. */
export interface UserView {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  common_name: string | null;
  is_superuser: boolean;
  is_active: boolean;
  is_qbnewb: boolean;
  is_installer: boolean;
  locale: string | null;
  date_joined: string;
  last_login: string | null;
  updated_at: string;
  login_attributes: Record<string, unknown> | null;
  jwt_attributes: Record<string, unknown> | null;
  /** The attributes in force, each with its source (callers see only their own, or are admins). */
  structured_attributes: Record<string, StructuredAttribute>;
  sso_source: string | null;
  /** An external user's tenant; null for internal users. */
  tenant_id: number | null;
  personal_collection_id: number | null;
  user_group_memberships: Array<{ id: number; is_group_manager: boolean }>;
  group_ids: number[];
}

export function toUserView(
  u: User,
  memberships: PermissionsGroupMembership[],
  personalCollectionId: number | null = null,
  tenantSlug: string | null = null,
): UserView {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    common_name: commonName(u),
    is_superuser: u.is_superuser,
    is_active: u.is_active,
    is_qbnewb: u.is_qbnewb,
    is_installer: u.id === 1,
    locale: u.locale,
    date_joined: iso(u.date_joined)!,
    last_login: iso(u.last_login),
    updated_at: iso(u.updated_at)!,
    login_attributes: u.login_attributes,
    jwt_attributes: u.jwt_attributes,
    structured_attributes: structuredAttributes(u, systemAttributes(tenantSlug)),
    sso_source: u.sso_source,
    tenant_id: u.tenant_id ?? null,
    personal_collection_id: personalCollectionId,
    user_group_memberships: memberships.map((m) => ({ id: m.group_id, is_group_manager: m.is_group_manager })),
    group_ids: memberships.map((m) => m.group_id),
  };
}
