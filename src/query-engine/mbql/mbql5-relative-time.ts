import { isClause, isMap, isRef, kebab, preview, withTemporalUnit } from './mbql5-syntax';
import { TRUNCATION_UNITS } from './types';
import { InvalidQueryError } from './validate';

const TRUNCATION: ReadonlySet<string> = new Set(TRUNCATION_UNITS);

/**
 * `=`, `!=` or `between` of a column bucketed by a unit and `relative-datetime`s of that unit, as Metabase's own
 * desugaring of `time-interval` writes them (`["between", col@day, rel(-30, day), rel(-1, day)]`): the buckets from
 * a to b counted from the current one, as legacy `time-interval`s; null when no argument is a `relative-datetime`.
 * Other uses (a column bucketed otherwise or not at all, `<`, `>`) have no exact legacy form: an unknown clause.
 * `convert`: an argument in its legacy form (mbql5-clauses.ts).
 */
export function relativeFilter(name: string, args: unknown[], at: string, convert: (x: unknown) => unknown): unknown[] | null {
  const isRelative = (x: unknown) => isClause(x) && kebab(x[0]) === 'relative-datetime';
  if (!args.slice(1).some(isRelative)) return null;
  const ref = convert(args[0]);
  const bucket = isRef(ref) && isMap(ref[2]) && typeof ref[2]['temporal-unit'] === 'string' ? ref[2]['temporal-unit'] : undefined;
  const offset = (x: unknown): number | null => {
    if (!isRelative(x) || !bucket || !TRUNCATION.has(bucket)) return null;
    const [n, unit] = (x as unknown[]).slice(2);
    if (n === 'current' && (unit === undefined || unit === bucket)) return 0;
    return Number.isInteger(n) && unit === bucket ? (n as number) : null;
  };
  const bad = () =>
    new InvalidQueryError(
      `unknown clause ${preview([name, ...args])}: a "relative-datetime" is only supported in "=", "!=" or "between"` +
        ' with a column bucketed by its unit.',
      at,
    );
  const unbucketed = withTemporalUnit(ref as unknown[], undefined);
  if (name === 'between') {
    const [a, b] = [offset(args[1]), offset(args[2])];
    if (args.length !== 3 || a === null || b === null || a > b) throw bad();
    return buckets(unbucketed, a, b, bucket!);
  }
  const n = offset(args[1]);
  if (args.length !== 2 || n === null) throw bad();
  const range = buckets(unbucketed, n, n, bucket!);
  // Legacy `!=` keeps the rows whose column is empty.
  return name === '=' ? range : ['or', ['not', range], ['is-null', unbucketed]];
}

/**
 * The buckets a..b of `unit` (0 the current one) on an unbucketed column, with legacy `time-interval`s only: n < 0
 * covers [n, 0), n > 0 covers [1, n], "current" [0, 1); a span not ending next to the current bucket is one
 * interval minus a shorter one.
 */
function buckets(ref: unknown[], a: number, b: number, unit: string): unknown[] {
  const ti = (n: number | 'current') => ['time-interval', ref, n, unit];
  const parts: unknown[] = [];
  if (a < 0) {
    const to = Math.min(b, -1);
    parts.push(to === -1 ? ti(a) : ['and', ti(a), ['not', ti(to + 1)]]);
  }
  if (a <= 0 && b >= 0) parts.push(ti('current'));
  if (b > 0) {
    const from = Math.max(a, 1);
    parts.push(from === 1 ? ti(b) : ['and', ti(b), ['not', ti(from - 1)]]);
  }
  return parts.length === 1 ? (parts[0] as unknown[]) : ['or', ...parts];
}
