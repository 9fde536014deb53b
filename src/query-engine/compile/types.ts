import type { CompiledColumn } from './contract';
import type { TemporalUnit } from '../mbql/types';

/** A compiled value: its SQL and what is known of its type. */
export interface Typed {
  sql: string;
  type: string | null;
}

/** A resolved column reference. */
export interface Resolved extends Typed {
  col: CompiledColumn;
  /** A plain stored column (no function around it). */
  direct: boolean;
  /** The unwrapped column, for range filters on bucketed refs. */
  raw: Typed;
  unit?: TemporalUnit;
}

export const TEMPORAL = new Set([
  'type/DateTime',
  'type/DateTimeWithLocalTZ',
  'type/DateTimeWithTZ',
  'type/Date',
  'type/DateTimeWithZoneOffset',
  'type/DateTimeWithZoneID',
]);
export const TEXT = new Set(['type/Text', 'type/UUID']);
export const isTemporal = (t: string | null) => t !== null && TEMPORAL.has(t);
export const isDateType = (t: string | null) => t === 'type/Date';

export function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
