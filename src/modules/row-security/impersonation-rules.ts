import { PreprocessError } from '../../query-engine/preprocess/context';

export const MISSING_ATTRIBUTE = 'User does not have attribute required for connection impersonation.';
export const INVALID_ROLE = 'Connection impersonation attribute is invalid: role must be a single non-empty string.';
export const DEFAULT_ROLE = 'Connection impersonation attribute is invalid: role must not be the database default role.';
export const CONFLICTING_POLICIES = 'Conflicting sandboxing and impersonation policies found.';
export const SEVERAL_POLICIES = 'Multiple conflicting connection impersonation policies found for current user.';

/** What deciding a caller's role on one database takes. */
export interface ImpersonationInput {
  /** The impersonation policies of the caller's groups on the database. */
  policies: Array<{ group_id: number; attribute: string }>;
  /** The caller's groups with data access to the database (an impersonated group has it: its policy restricts it). */
  readers: number[];
  attributes: Record<string, unknown>;
  /** The user the database's connection logs in as: impersonating it would change nothing, so it is refused. */
  defaultRole: string | null;
  /** Whether row security policies restrict a table of the database for the caller. */
  sandboxed: boolean;
}

/**
 * The warehouse role a caller's queries on a database run under, or null when none is imposed. A policy of one of
 * the caller's reading groups applies unless another reading group has no policy (Metabase: unrestricted access in
 * another group lifts it). Everything that keeps the role from being known fails the query: never the connection's
 * own, wider, role by mistake.
 */
export function impersonatedRole(input: ImpersonationInput): string | null {
  const policies = applyingPolicies(input.policies, input.readers);
  if (!policies.length) return null;
  if (input.sandboxed) throw new PreprocessError(CONFLICTING_POLICIES);
  const attributes = new Set(policies.map((p) => p.attribute));
  if (attributes.size > 1) throw new PreprocessError(SEVERAL_POLICIES);
  const value = input.attributes[policies[0].attribute];
  if (value === undefined || value === null) throw new PreprocessError(MISSING_ATTRIBUTE);
  if (typeof value !== 'string' || value.trim() === '') throw new PreprocessError(INVALID_ROLE);
  if (input.defaultRole !== null && value === input.defaultRole) throw new PreprocessError(DEFAULT_ROLE);
  return value;
}

/** The policies that apply: those of reading groups, none when a reading group has no policy. */
export function applyingPolicies<P extends { group_id: number }>(policies: P[], readerGroups: number[]): P[] {
  const readers = new Set(readerGroups);
  const applying = policies.filter((p) => readers.has(p.group_id));
  const impersonated = new Set(applying.map((p) => p.group_id));
  return [...readers].some((g) => !impersonated.has(g)) ? [] : applying;
}
