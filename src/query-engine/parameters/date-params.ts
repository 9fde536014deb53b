import { ParameterError } from './errors';
import {
  formatDate,
  formatDateTime,
  formatInstant,
  fromMs,
  toMs,
  truncate,
  utcMs,
  wallClock,
  wallToInstant,
  WEEKDAYS,
  type DateUnit,
  type StartOfWeek,
  type Wall,
} from '../calendar';

/**
 * Metabase's date parameter strings, resolved against a `now` and a time zone.
 *
 * Absolute: `2024-05-01` (a day), `2024-05-01T10:30` (a minute), `2024-05` (a month), `Q1-2024` (a quarter),
 * `2024-05-01~2024-05-31` (inclusive), `~2024-05-01` (on or before), `2024-05-01~` (on or after); range ends may
 * carry a time (`2024-05-01T10:30~2024-05-01T12:00`, minute precision).
 * Relative: `today`, `yesterday`, `this|last|next<unit>`, `past<n><unit>s`, `next<n><unit>s`, a trailing `~`
 * includes the current unit, `-from-<m><unit>s` shifts the window (`past3months-from-1years`).
 * Exclusions: `exclude-hours-0-23`, `exclude-days-Mon-Tue`, `exclude-months-Jan-Feb`, `exclude-quarters-1-4`.
 */
export type { DateUnit, StartOfWeek } from '../calendar';
export const DATE_UNITS: readonly DateUnit[] = ['minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];

export interface DateParamOptions {
  /** Defaults to the current time. */
  now?: Date;
  /** IANA zone of the report (report-timezone); null or absent: UTC. */
  timezone?: string | null;
  /** The `start-of-week` setting; Metabase's default is Sunday. */
  startOfWeek?: StartOfWeek;
}

/** `time-interval` arguments when the string is exactly one: `["time-interval", field, n, unit, {include-current}]`. */
export interface RelativeInterval {
  n: number | 'current' | 'last' | 'next';
  unit: DateUnit;
  includeCurrent?: boolean;
}

export interface DateRange {
  kind: 'range';
  /**
   * The precision of the bounds: `minute` when the string named a time, else `day` or the calendar unit the
   * string names (month for `2024-05`, quarter for `Q1-2024`, the relative unit for `past3months`).
   */
  unit: DateUnit;
  /** Inclusive start, wall clock in the zone: `YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm:ss` for minute/hour units. Absent: unbounded. */
  start?: string;
  /** Exclusive end, same format. Absent: unbounded. */
  end?: string;
  /** The same bounds as UTC instants (`2024-03-10T05:00:00Z`). */
  startInstant?: string;
  endInstant?: string;
  /** Set for the relative strings that are exactly a `time-interval` filter. */
  relative?: RelativeInterval;
}

export type ExclusionUnit = 'hour-of-day' | 'day-of-week' | 'month-of-year' | 'quarter-of-year';

export interface DateExclusion {
  kind: 'exclude';
  unit: ExclusionUnit;
  /**
   * Values as MBQL extraction units number them: hour-of-day 0-23, day-of-week 1-7 counted from the start of
   * the week, month-of-year 1-12, quarter-of-year 1-4.
   */
  values: number[];
}

export type ParsedDateParam = DateRange | DateExclusion;

const invalid = (s: string) => new ParameterError(`"${s}" is not a valid date parameter`);

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?$/;
const MONTH_RE = /^(\d{4})-(\d{2})$/;
const QUARTER_RE = /^Q(\d)-(\d{4})$/i;
const UNIT_ALT = 'minute|hour|day|week|month|quarter|year';
const RELATIVE_RE = new RegExp(`^(past|next|last)(\\d+)(${UNIT_ALT})s?(~)?(?:-from-(\\d+)(${UNIT_ALT})s?)?$`, 'i');
const THIS_RE = new RegExp(`^(this|last|next)(${UNIT_ALT})$`, 'i');
const EXCLUDE_RE = /^exclude-(hours|days|months|quarters)-(.+)$/i;

const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function daysInMonth(y: number, mo: number): number {
  return new Date(utcMs(y, mo, 0)).getUTCDate();
}

function validWall(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): boolean {
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth(y, mo) && h >= 0 && h <= 23 && mi >= 0 && mi <= 59 && s >= 0 && s <= 59;
}

/** A point: a day or a minute. Null when `s` is neither. */
function parsePoint(s: string, whole: string): { wall: Wall; unit: 'day' | 'minute' } | null {
  let m = DAY_RE.exec(s);
  if (m) {
    const [y, mo, d] = [+m[1], +m[2], +m[3]];
    if (!validWall(y, mo, d)) throw invalid(whole);
    return { wall: { y, mo, d, h: 0, mi: 0, s: 0 }, unit: 'day' };
  }
  m = DATETIME_RE.exec(s);
  if (m) {
    const [y, mo, d, h, mi, sec] = [+m[1], +m[2], +m[3], +m[4], +m[5], m[6] ? +m[6] : 0];
    if (!validWall(y, mo, d, h, mi, sec)) throw invalid(whole);
    // Minute precision, like Metabase's datetime widget: seconds are dropped.
    return { wall: { y, mo, d, h, mi, s: 0 }, unit: 'minute' };
  }
  return null;
}

/** Adds `n` units to a wall clock (calendar arithmetic: months keep day 1 since callers truncate first). */
export function addUnits(w: Wall, n: number, unit: DateUnit): Wall {
  switch (unit) {
    case 'minute':
      return fromMs(toMs(w) + n * 60_000);
    case 'hour':
      return fromMs(toMs(w) + n * 3_600_000);
    case 'day':
      return fromMs(utcMs(w.y, w.mo - 1, w.d + n, w.h, w.mi, w.s));
    case 'week':
      return fromMs(utcMs(w.y, w.mo - 1, w.d + 7 * n, w.h, w.mi, w.s));
    case 'month':
      return fromMs(utcMs(w.y, w.mo - 1 + n, w.d, w.h, w.mi, w.s));
    case 'quarter':
      return fromMs(utcMs(w.y, w.mo - 1 + 3 * n, w.d, w.h, w.mi, w.s));
    case 'year':
      return fromMs(utcMs(w.y + n, w.mo - 1, w.d, w.h, w.mi, w.s));
  }
}

/** Like addUnits, but minutes and hours count elapsed time in `tz` (across a DST change 04:00 - 2h is 01:00). */
function addIn(w: Wall, n: number, unit: DateUnit, tz: string | null): Wall {
  if (unit !== 'minute' && unit !== 'hour') return addUnits(w, n, unit);
  const ms = wallToInstant(w, tz).getTime() + n * (unit === 'minute' ? 60_000 : 3_600_000);
  return wallClock(new Date(ms), tz);
}

function normalizeUnit(u: string): DateUnit {
  return u.toLowerCase() as DateUnit;
}

function range(start: Wall | undefined, end: Wall | undefined, unit: DateUnit, tz: string | null, relative?: RelativeInterval): DateRange {
  const fmt = unit === 'minute' || unit === 'hour' ? formatDateTime : formatDate;
  const r: DateRange = { kind: 'range', unit };
  if (start) {
    r.start = fmt(start);
    r.startInstant = formatInstant(wallToInstant(start, tz));
  }
  if (end) {
    r.end = fmt(end);
    r.endInstant = formatInstant(wallToInstant(end, tz));
  }
  if (relative) r.relative = relative;
  return r;
}

/** Parses one date parameter string. Throws ParameterError for anything else. */
export function parseDateParam(value: unknown, opts: DateParamOptions = {}): ParsedDateParam {
  if (typeof value !== 'string') throw new ParameterError(`${JSON.stringify(value) ?? String(value)} is not a valid date parameter`);
  const s = value.trim();
  const tz = opts.timezone ?? null;
  const startOfWeek = opts.startOfWeek ?? 'sunday';
  if (!WEEKDAYS.includes(startOfWeek)) throw new ParameterError(`Unknown start of week "${startOfWeek}"`);
  if (!s) throw invalid(value);

  // Absolute single values.
  const point = parsePoint(s, value);
  if (point) return range(point.wall, addIn(point.wall, 1, point.unit, tz), point.unit, tz);
  let m = MONTH_RE.exec(s);
  if (m) {
    const [y, mo] = [+m[1], +m[2]];
    if (mo < 1 || mo > 12) throw invalid(value);
    const start = { y, mo, d: 1, h: 0, mi: 0, s: 0 };
    return range(start, addUnits(start, 1, 'month'), 'month', tz);
  }
  m = QUARTER_RE.exec(s);
  if (m) {
    const [q, y] = [+m[1], +m[2]];
    if (q < 1 || q > 4) throw invalid(value);
    const start = { y, mo: 3 * (q - 1) + 1, d: 1, h: 0, mi: 0, s: 0 };
    return range(start, addUnits(start, 1, 'quarter'), 'quarter', tz);
  }

  // Relative values (checked before ranges: `past30days~` ends with a tilde too).
  const now = wallClock(opts.now ?? new Date(), tz);
  const lower = s.toLowerCase();
  if (lower === 'today' || lower === 'yesterday') {
    const today = truncate(now, 'day');
    const start = lower === 'today' ? today : addUnits(today, -1, 'day');
    return range(start, addUnits(start, 1, 'day'), 'day', tz, { n: lower === 'today' ? 'current' : 'last', unit: 'day' });
  }
  m = THIS_RE.exec(s);
  if (m) {
    const unit = normalizeUnit(m[2]);
    const which = m[1].toLowerCase();
    const shift = which === 'this' ? 0 : which === 'last' ? -1 : 1;
    const start = addIn(truncate(now, unit, startOfWeek), shift, unit, tz);
    return range(start, addIn(start, 1, unit, tz), unit, tz, { n: which === 'this' ? 'current' : (which as 'last' | 'next'), unit });
  }
  m = RELATIVE_RE.exec(s);
  if (m) {
    const direction = m[1].toLowerCase() === 'next' ? 1 : -1;
    const n = Number(m[2]);
    const unit = normalizeUnit(m[3]);
    const includeCurrent = Boolean(m[4]);
    if (!Number.isSafeInteger(n) || n < 1 || n > 100_000) throw invalid(value);
    let anchor = truncate(now, unit, startOfWeek);
    let exact = true;
    if (m[5]) {
      const offset = Number(m[5]);
      if (!Number.isSafeInteger(offset) || offset > 100_000) throw invalid(value);
      const offsetUnit = normalizeUnit(m[6]);
      anchor = truncate(addIn(anchor, direction * offset, offsetUnit, tz), unit, startOfWeek);
      exact = false;
    }
    let start: Wall;
    let end: Wall;
    if (direction < 0) {
      start = addIn(anchor, -n, unit, tz);
      end = includeCurrent ? addIn(anchor, 1, unit, tz) : anchor;
    } else {
      start = includeCurrent ? anchor : addIn(anchor, 1, unit, tz);
      end = addIn(anchor, n + 1, unit, tz);
    }
    const relative: RelativeInterval | undefined = exact
      ? { n: direction * n, unit, ...(includeCurrent ? { includeCurrent: true } : {}) }
      : undefined;
    return range(start, end, unit, tz, relative);
  }

  m = EXCLUDE_RE.exec(s);
  if (m) return parseExclusion(m[1].toLowerCase(), m[2], value, startOfWeek);

  // Ranges.
  const tilde = s.indexOf('~');
  if (tilde >= 0 && tilde === s.lastIndexOf('~')) {
    const a = s.slice(0, tilde).trim();
    const b = s.slice(tilde + 1).trim();
    if (!a && !b) throw invalid(value);
    const from = a ? parsePoint(a, value) : undefined;
    const to = b ? parsePoint(b, value) : undefined;
    if (from === null || to === null) throw invalid(value);
    const unit: DateUnit = from?.unit === 'minute' || to?.unit === 'minute' ? 'minute' : 'day';
    const end = to ? addIn(to.wall, 1, to.unit, tz) : undefined;
    return range(from?.wall, end, unit, tz);
  }
  throw invalid(value);
}

function parseExclusion(kind: string, list: string, whole: string, startOfWeek: StartOfWeek): DateExclusion {
  const items = list.split('-');
  if (items.some((i) => !i)) throw invalid(whole);
  const values = items.map((raw) => {
    const item = raw.toLowerCase();
    switch (kind) {
      case 'hours': {
        if (!/^\d{1,2}$/.test(item) || +item > 23) throw invalid(whole);
        return +item;
      }
      case 'days': {
        const d = DAY_NAMES.indexOf(item);
        if (d < 0) throw invalid(whole);
        return ((d - WEEKDAYS.indexOf(startOfWeek) + 7) % 7) + 1;
      }
      case 'months': {
        const mo = MONTH_NAMES.indexOf(item);
        if (mo < 0) throw invalid(whole);
        return mo + 1;
      }
      default: {
        if (!/^[1-4]$/.test(item)) throw invalid(whole);
        return +item;
      }
    }
  });
  const unit: ExclusionUnit =
    kind === 'hours' ? 'hour-of-day' : kind === 'days' ? 'day-of-week' : kind === 'months' ? 'month-of-year' : 'quarter-of-year';
  return { kind: 'exclude', unit, values: [...new Set(values)] };
}

/** True when the string parses (for validation without using the result). */
export function isDateParam(value: unknown, opts: DateParamOptions = {}): boolean {
  try {
    parseDateParam(value, opts);
    return true;
  } catch (e) {
    if (e instanceof ParameterError) return false;
    throw e;
  }
}
