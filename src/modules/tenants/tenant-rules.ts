import { MessageError } from '../../common/errors/api-errors';

/** Metabase's slug rule: lower-case letters, digits, `-` and `_`. */
export const SLUG = /^[-_a-z0-9]{1,255}$/;

export const TENANT_MSG = {
  taken: 'This tenant name or slug is already taken.',
  slug: 'value must be a string of 1 to 255 lower-case letters, digits, `-` or `_`.',
  internalUser: 'Cannot add tenant claim to internal user',
  claimRequired: 'Tenant claim required for external user',
  mismatch: 'Tenant ID mismatch with existing user',
  inactive: 'Tenant is not active',
  disabled: 'Tenants and tenant users are disabled.',
  turnOff: 'Tenants cannot be turned off while active tenant users exist: deactivate their tenants first.',
  claimSlug: (claim: string) => `Value of \`${claim}\` must be a tenant slug (lower-case letters, digits, \`-\` or \`_\`)`,
} as const;

/**
 * The tenant an identity provider names: absent (null), or a string or integer (as a slug). Anything else is 400, as in
 * Metabase; a value that is no slug is refused too, since it would name a tenant no admin could create.
 */
export function tenantClaim(value: unknown, claim: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && !Number.isInteger(value)) throw new MessageError(`Value of \`${claim}\` must be a string`);
  const slug = String(value).trim();
  if (!SLUG.test(slug)) throw new MessageError(TENANT_MSG.claimSlug(claim));
  return slug;
}

/** What a sign-in knows: whether tenants are on, the claim, and the user found by email with their tenant. */
export interface TenantSignIn {
  enabled: boolean;
  slug: string | null;
  /** undefined: no such user yet; null: an internal user; else the slug of their tenant. */
  userTenantSlug: string | null | undefined;
}

/** Why a sign-in is refused (each a 403 in Metabase), or null when it may go on. */
export function signInRefusal(s: TenantSignIn): string | null {
  const tenantUser = typeof s.userTenantSlug === 'string';
  if (!s.enabled) return s.slug !== null || tenantUser ? TENANT_MSG.disabled : null;
  if (s.userTenantSlug === null && s.slug !== null) return TENANT_MSG.internalUser;
  if (tenantUser && s.slug === null) return TENANT_MSG.claimRequired;
  if (tenantUser && s.slug !== s.userTenantSlug) return TENANT_MSG.mismatch;
  return null;
}
