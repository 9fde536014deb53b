import type { TemporalUnit } from '../mbql/types';
import { TRUNCATION_UNITS } from '../mbql/types';
import { fromMs, toMs, truncate, wallClock, type Wall } from '../calendar';

export type TruncationUnit = (typeof TRUNCATION_UNITS)[number];
export type IntervalUnit = TruncationUnit | 'second';

export function isTruncation(unit: TemporalUnit | string): unit is TruncationUnit {
  return (TRUNCATION_UNITS as readonly string[]).includes(unit);
}

/** A wall-clock time as plain fields (no time zone attached): the compiler's calendar arithmetic. */
export type WallTime = Wall;

/** The wall clock of an instant in `timezone` (zone names are validated before they get here). */
export function wallFromDate(date: Date, timezone: string | null): WallTime {
  return wallClock(date, timezone);
}

/** Start of the unit containing `w`; weeks start on Sunday. */
export function truncateWall(w: WallTime, unit: TruncationUnit): WallTime {
  return truncate(w, unit, 'sunday');
}

/** `w` plus n units (calendar months clamp to the month's last day, as SQL engines do). */
export function addWall(w: WallTime, n: number, unit: IntervalUnit): WallTime {
  const simple: Partial<Record<IntervalUnit, number>> = {
    second: 1000,
    minute: 60_000,
    hour: 3_600_000,
    day: 86_400_000,
    week: 7 * 86_400_000,
  };
  if (simple[unit]) return fromMs(toMs(w) + n * simple[unit]!);
  const months = unit === 'month' ? n : unit === 'quarter' ? 3 * n : 12 * n;
  const total = w.y * 12 + (w.mo - 1) + months;
  const y = Math.floor(total / 12);
  const mo = (total % 12) + 1;
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return { ...w, y, mo, d: Math.min(w.d, last) };
}

const pad = (n: number, l = 2) => String(n).padStart(l, '0');

export function wallText(w: WallTime, dateOnly = false): string {
  const date = `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}`;
  return dateOnly ? date : `${date} ${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}`;
}

const DATE_LITERAL = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An ISO date or date-time string as a wall time, or null when the string is not one. */
export function parseDateLiteral(text: string): { wall: WallTime; hasTime: boolean } | null {
  const m = DATE_LITERAL.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, offset] = m;
  let wall: WallTime = { y: +y, mo: +mo, d: +d, h: h ? +h : 0, mi: mi ? +mi : 0, s: s ? +s : 0 };
  if (wall.mo < 1 || wall.mo > 12 || wall.d < 1 || wall.d > 31 || wall.h > 23 || wall.mi > 59 || wall.s > 59) return null;
  if (offset && offset !== 'Z') {
    const sign = offset[0] === '-' ? -1 : 1;
    const digits = offset.slice(1).replace(':', '');
    wall = fromMs(toMs(wall) - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
  }
  return { wall, hasTime: h !== undefined };
}
