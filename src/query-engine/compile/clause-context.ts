import type { CompileOptions } from './contract';
import { QueryCompileError } from './contract';
import type { Dialect } from './dialect';
import type { Binder } from './params';
import { isDateType, isTemporal, type Resolved, type Typed } from './types';

/**
 * What the clause compilers (aggregations.ts, expressions.ts, filters.ts) see of the query level they compile
 * for: the dialect, the bound values, the options, the clause for messages, and the level's reference resolution.
 * They call one another through it (an expression holding a condition, a filter on an expression).
 */
export interface ClauseContext {
  readonly d: Dialect;
  readonly binder: Binder;
  readonly opts: CompileOptions;
  /** The clause being compiled (`filter`, `aggregation`, ...), for error messages. */
  readonly clause: string;
  /** A `field` or `expression` reference, bucketed or binned as its options say, resolved against the level's sources. */
  resolveRef(ref: unknown): Resolved;
  expr(e: unknown): Typed;
  filter(f: unknown): string;
}

/** The report time zone when the engine can bucket in it; null (UTC) otherwise. */
export function reportZone(cx: Pick<ClauseContext, 'd' | 'opts'>): string | null {
  const zone = cx.opts.timezone;
  return zone && cx.d.convertTimezone('x', `'${zone}'`, false) !== null ? zone : null;
}

/**
 * A timestamp as wall-clock time in the report time zone, where the engine can convert (else unchanged:
 * UTC). Dates are calendar days and stay as they are.
 */
export function zoned(cx: Pick<ClauseContext, 'd' | 'opts'>, t: Typed): Typed {
  const zone = cx.opts.timezone;
  if (!zone || zone === 'UTC' || !isTemporal(t.type) || isDateType(t.type)) return t;
  // The zone goes into the SQL as a literal (so that GROUP BY and window expressions match textually), only
  // after checking it is a known IANA name made of letters, digits, '_', '+', '-' and '/'.
  let known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    known = false;
  }
  if (!known) throw new QueryCompileError(`Unknown report time zone ${JSON.stringify(zone)}.`, 'query');
  const aware = t.type !== 'type/DateTime';
  const sql = cx.d.convertTimezone(t.sql, `'${zone}'`, aware);
  return sql === null ? t : { sql, type: t.type };
}
