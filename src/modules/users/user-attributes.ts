/**
 * User attributes for row and connection security. Admins set `login_attributes`; each SSO sign-in rewrites
 * `jwt_attributes`; where both name a key the admin's value wins (metabase#61940). System attributes (a tenant's
 * `@tenant.slug`) come last and win over both: their `@` prefix is refused in the other two.
 */

/** One value, or several (matched as `IN`). */
export type AttributeScalar = string | number | boolean;
export type AttributeValue = AttributeScalar | AttributeScalar[];
export type Attributes = Record<string, AttributeValue>;

export type AttributeSource = 'user' | 'jwt' | 'system';

export interface StructuredAttribute {
  source: AttributeSource;
  /** System attributes cannot be overridden by an admin. */
  frozen: boolean;
  value: AttributeValue;
  /** The identity provider's value that an admin's value shadows. */
  original?: AttributeValue;
}

export interface AttributeHolder {
  login_attributes: Record<string, unknown> | null;
  jwt_attributes: Record<string, unknown> | null;
}

export const RESERVED_PREFIX = '@';

export const ATTRIBUTE_MSG = {
  reservedKey: 'login attribute keys must not start with `@`',
  value: 'login attribute values must be strings, numbers, booleans or lists of those.',
};

const isScalar = (v: unknown): v is AttributeScalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

export function isAttributeValue(v: unknown): v is AttributeValue {
  return isScalar(v) || (Array.isArray(v) && v.every(isScalar));
}

export const isReservedKey = (key: string): boolean => key.startsWith(RESERVED_PREFIX);

/** A stored map read defensively: a hand-edited or legacy row may hold values no filter can use; those are left out. */
function usable(map: Record<string, unknown> | null | undefined): Attributes {
  const out: Attributes = {};
  if (!map || typeof map !== 'object') return out;
  for (const [k, v] of Object.entries(map)) if (isAttributeValue(v)) out[k] = v;
  return out;
}

/**
 * What an identity provider said, as it is stored: values no filter can use (objects, nulls) and keys in the
 * reserved `@` namespace are dropped, so a claim can never pose as a system attribute. null when nothing is left.
 */
export function providerAttributes(claims: Record<string, unknown>): Attributes | null {
  const out: Attributes = {};
  for (const [k, v] of Object.entries(claims)) if (!isReservedKey(k) && isAttributeValue(v)) out[k] = v;
  return Object.keys(out).length > 0 ? out : null;
}

/** The attributes in force: the provider's, overridden by the admin's, overridden by the system's. */
export function userAttributes(user: AttributeHolder, system: Attributes = {}): Attributes {
  return { ...usable(user.jwt_attributes), ...usable(user.login_attributes), ...system };
}

/** Each attribute in force with where it comes from, as GET /api/user/:id shows it. */
export function structuredAttributes(user: AttributeHolder, system: Attributes = {}): Record<string, StructuredAttribute> {
  const jwt = usable(user.jwt_attributes);
  const out: Record<string, StructuredAttribute> = {};
  for (const [k, value] of Object.entries(jwt)) out[k] = { source: 'jwt', frozen: false, value };
  for (const [k, value] of Object.entries(usable(user.login_attributes))) {
    out[k] = { source: 'user', frozen: false, value, ...(k in jwt ? { original: jwt[k] } : {}) };
  }
  for (const [k, value] of Object.entries(system)) out[k] = { source: 'system', frozen: true, value };
  return out;
}

/** The attribute every tenant user has, which policies use to tell tenants apart. */
export const TENANT_SLUG_ATTRIBUTE = '@tenant.slug';

/** The system attributes of a user: `@tenant.slug` for a tenant user, none for an internal one. */
export function systemAttributes(tenantSlug: string | null | undefined): Attributes {
  return tenantSlug ? { [TENANT_SLUG_ATTRIBUTE]: tenantSlug } : {};
}
