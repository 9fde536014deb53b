import { ParameterError } from './parameters/errors';

/**
 * Wall-clock calendar arithmetic shared by the compiler (date literals, relative filters) and the parameters (date
 * strings): plain {y, mo, d, h, mi, s} fields, converted to and from instants in a named time zone.
 */
export type DateUnit = 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';

export type StartOfWeek = 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
export const WEEKDAYS: readonly StartOfWeek[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** A wall-clock time (no zone): month is 1-12. */
export interface Wall {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: tz,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      throw new ParameterError(`Unknown time zone "${tz}"`);
    }
    formats.set(tz, f);
  }
  return f;
}

/** The wall clock of `instant` in `tz` (null or UTC: UTC). */
export function wallClock(instant: Date, tz: string | null): Wall {
  if (Number.isNaN(instant.getTime())) throw new ParameterError('Invalid current time');
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') return fromMs(instant.getTime());
  const parts: Record<string, number> = {};
  for (const p of formatFor(tz).formatToParts(instant)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year, mo: parts.month, d: parts.day, h: parts.hour === 24 ? 0 : parts.hour, mi: parts.minute, s: parts.second };
}

/**
 * Date.UTC without its two-digit-year rule (Date.UTC(99, 0) is 1999): month is 0-based and, like the other parts,
 * may overflow (month 12 is January of the next year, day 0 the last day of the previous month).
 */
export function utcMs(y: number, mo0: number, d = 1, h = 0, mi = 0, s = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo0, d);
  t.setUTCHours(h, mi, s, 0);
  return t.getTime();
}

/** Milliseconds of a wall clock read as if it were UTC: lets calendar arithmetic use the Date normalization. */
export function toMs(w: Wall): number {
  return utcMs(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
}

export function fromMs(ms: number): Wall {
  const d = new Date(ms);
  return {
    y: d.getUTCFullYear(),
    mo: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    mi: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
  };
}

/**
 * The instant at which the wall clock of `tz` shows `w`. In a spring-forward gap the later offset wins (02:30 on
 * the day New York skips 02:00-03:00 is 03:30 EDT); in a fall-back overlap the earlier instant wins.
 */
export function wallToInstant(w: Wall, tz: string | null): Date {
  const naive = toMs(w);
  if (!tz || tz === 'UTC' || tz === 'Etc/UTC') return new Date(naive);
  const offsetAt = (ms: number) => toMs(wallClock(new Date(ms), tz)) - ms;
  const first = offsetAt(naive);
  let t = naive - first;
  const second = offsetAt(t);
  if (second !== first) {
    const t2 = naive - second;
    // Overlap: both are valid, keep the earlier. Gap: neither maps back; take the one after the gap.
    if (toMs(wallClock(new Date(t2), tz)) === naive) t = Math.min(t, t2);
    else if (toMs(wallClock(new Date(t), tz)) !== naive) t = Math.max(t, t2);
  }
  return new Date(t);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatDate(w: Wall): string {
  return `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)}`;
}

export function formatDateTime(w: Wall): string {
  return `${formatDate(w)}T${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}`;
}

/** ISO-8601 UTC with a `Z`, seconds precision. */
export function formatInstant(d: Date): string {
  return d.toISOString().replace(/\.000Z$/, 'Z');
}

/** The start of the unit containing `w`. */
export function truncate(w: Wall, unit: DateUnit, startOfWeek: StartOfWeek = 'sunday'): Wall {
  switch (unit) {
    case 'minute':
      return { ...w, s: 0 };
    case 'hour':
      return { ...w, mi: 0, s: 0 };
    case 'day':
      return { ...w, h: 0, mi: 0, s: 0 };
    case 'week': {
      const dow = new Date(utcMs(w.y, w.mo - 1, w.d)).getUTCDay();
      const back = (dow - WEEKDAYS.indexOf(startOfWeek) + 7) % 7;
      return fromMs(utcMs(w.y, w.mo - 1, w.d - back));
    }
    case 'month':
      return { y: w.y, mo: w.mo, d: 1, h: 0, mi: 0, s: 0 };
    case 'quarter':
      return { y: w.y, mo: w.mo - ((w.mo - 1) % 3), d: 1, h: 0, mi: 0, s: 0 };
    case 'year':
      return { y: w.y, mo: 1, d: 1, h: 0, mi: 0, s: 0 };
  }
}
