import { InvalidQueryError } from './validate';

/** The shapes the MBQL 5 conversion (mbql5.ts) reads and writes: maps, lists, clauses, keys and references. */

export function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `[name, ...]`: an MBQL 5 clause has its options map second. */
export function isClause(v: unknown): v is [string, ...unknown[]] {
  return Array.isArray(v) && typeof v[0] === 'string';
}

/** A list of the stage at `at`; absent or null: empty. */
export function list(v: unknown, at: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new InvalidQueryError(`must be a list, got ${preview(v)}.`, at);
  return v;
}

/** The keys of `o` among `keys` that have a value. */
export function pick(o: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined && o[k] !== null) out[k] = o[k];
  return out;
}

/** A clause as the caller sent it, shortened for a message. */
export function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}

/** `lib/uuid`, `lib/type`...: metadata of the client's library, meaningless to the result. */
export function isLibKey(k: string): boolean {
  return k.startsWith('lib/');
}

export function kebab(s: unknown): string {
  return typeof s === 'string' ? s.replace(/_/g, '-').toLowerCase() : String(s);
}

/** Keys kebab-cased, shallowly (`source_table` too); namespaced keys (`lib/uuid`) as they are. */
export function kebabKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k.includes('/') ? k : k.replace(/_/g, '-'), v]));
}

/** A converted (legacy) field or expression reference. */
export function isRef(v: unknown): v is unknown[] {
  return Array.isArray(v) && (v[0] === 'field' || v[0] === 'expression');
}

/** A converted field or expression reference bucketed by `unit`, or unbucketed. */
export function withTemporalUnit(ref: unknown[], unit: string | undefined): unknown[] {
  const [kind, id, opts] = ref;
  const rest = isMap(opts) ? Object.fromEntries(Object.entries(opts).filter(([k]) => k !== 'temporal-unit')) : {};
  const legacy = unit ? { ...rest, 'temporal-unit': unit } : rest;
  if (kind === 'field') return ['field', id, Object.keys(legacy).length ? legacy : null];
  return Object.keys(legacy).length ? ['expression', id, legacy] : ['expression', id];
}
