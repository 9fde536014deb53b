import { createHash } from 'node:crypto';
import { normalizeDatasetQuery } from '../../query-engine/mbql/normalize';
import { canonicalJson } from './canonical-json';

/** The parts of a dataset query that decide what it answers (Metabase's `select-keys-for-hashing`). */
const HASHED_KEYS = ['database', 'type', 'query', 'native', 'parameters'] as const;

/**
 * The hash that identifies "the same query" in the execution log: sha256 of the normalized dataset query with
 * its parameters (values included, as Metabase does), without `constraints`, `middleware` or other options that
 * do not change what the query means. Hex, 64 characters.
 */
export function queryHash(query: unknown): string {
  const q = (query && typeof query === 'object' ? query : {}) as Record<string, unknown>;
  const picked: Record<string, unknown> = {};
  for (const key of HASHED_KEYS) if (q[key] !== undefined && q[key] !== null) picked[key] = q[key];
  if (Array.isArray(picked.parameters) && picked.parameters.length === 0) delete picked.parameters;
  return createHash('sha256').update(canonicalJson(picked)).digest('hex');
}

/** queryHash of a query as a client sent it (legacy snake_case keys and all); raw when it does not normalize. */
export function rawQueryHash(raw: unknown): string {
  try {
    return queryHash(normalizeDatasetQuery(raw));
  } catch {
    return queryHash(raw);
  }
}
