import { createHash } from 'node:crypto';
import { canonicalJson } from '../query-log';

/** Bump when the cached shape or the key's meaning changes, so old entries are never read again. */
const KEY_VERSION = 1;

/** Everything besides the query itself that shapes a result. */
export interface CacheKeyParts {
  /** The normalized dataset query, parameters included. */
  query: object;
  /** Row cap applied when the query has no `constraints`. */
  defaultMaxRows: number;
  /** `report-timezone` in force (it moves date buckets and shows in `results_timezone`). */
  timezone: string | null;
  /** Who asks: admins share one shape; everyone else is keyed by their exact set of groups and their access. */
  caller: { isSuperuser: boolean; groupIds: number[] };
  access: { data: string; native: string };
  /** The caller's row security restrictions on the database, as canonical text; '' or absent for none. */
  policy?: string;
}

const KEYS = ['database', 'type', 'query', 'native', 'parameters', 'constraints'] as const;

/**
 * The result-cache key: sha256 hex. Unlike the execution-log hash it includes `constraints` (they change the rows)
 * and the caller's permission shape: two callers share an entry only when they are both admins, or belong to exactly
 * the same groups with the same access to the database, so any group-based restriction (today's data/native access,
 * a later row-level one) can never let one caller read rows cached for another.
 */
export function cacheKey(parts: CacheKeyParts): string {
  const q = parts.query as Record<string, unknown>;
  const query: Record<string, unknown> = {};
  for (const key of KEYS) if (q[key] !== undefined && q[key] !== null) query[key] = q[key];
  const perms = parts.caller.isSuperuser
    ? 'superuser'
    : { groups: [...new Set(parts.caller.groupIds)].sort((a, b) => a - b), data: parts.access.data, native: parts.access.native };
  // Only restricted callers' keys change: their rows depend on their attributes, not only on their groups.
  const policy = parts.policy ? { policy: parts.policy } : {};
  const text = canonicalJson({ v: KEY_VERSION, query, maxRows: parts.defaultMaxRows, timezone: parts.timezone, perms, ...policy });
  return createHash('sha256').update(text).digest('hex');
}
