/**
 * Date and time formatting by temporal unit and column settings (`date_style`, `date_separator`, `date_abbreviate`,
 * `time_enabled`, `time_style`), as Metabase shows them. Values are read as the wall time written in the string
 * (the report time zone the server already applied), never shifted to the browser's zone.
 */

export interface DateOptions {
  date_style?: string;
  date_separator?: string;
  date_abbreviate?: boolean;
  time_enabled?: string | null;
  time_style?: string;
}

export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  hasTime: boolean;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function parseWallTime(value: unknown): WallTime | null {
  if (value instanceof Date) return parseWallTime(value.toISOString());
  if (typeof value !== 'string') return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m) {
    const t = /^(\d{2}):(\d{2})(?::(\d{2}))?/.exec(value);
    return t ? { year: 1970, month: 1, day: 1, hour: +t[1], minute: +t[2], second: +(t[3] ?? 0), hasTime: true } : null;
  }
  return {
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: +(m[4] ?? 0),
    minute: +(m[5] ?? 0),
    second: +(m[6] ?? 0),
    hasTime: m[4] !== undefined,
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** One of Metabase's date styles: "MMMM D, YYYY", "D MMMM, YYYY", "dddd, MMMM D, YYYY", "M/D/YYYY", "D/M/YYYY", "YYYY/M/D". */
export function formatDateStyle(t: WallTime, style = 'MMMM D, YYYY', o: DateOptions = {}): string {
  const abbreviate = o.date_abbreviate === true;
  const month = abbreviate ? MONTHS[t.month - 1].slice(0, 3) : MONTHS[t.month - 1];
  const weekday = abbreviate ? DAYS[weekdayOf(t)].slice(0, 3) : DAYS[weekdayOf(t)];
  const tokens: Record<string, string> = {
    YYYY: String(t.year),
    MMMM: month,
    MM: pad(t.month),
    M: String(t.month),
    DD: pad(t.day),
    D: String(t.day),
    dddd: weekday,
  };
  let out = style.replace(/YYYY|MMMM|MM|M|DD|D|dddd/g, (tok) => tokens[tok]);
  if (o.date_separator && /\//.test(style)) out = out.replace(/\//g, o.date_separator);
  return out;
}

export function formatTime(t: WallTime, o: DateOptions = {}): string {
  const style = o.time_style ?? 'h:mm A';
  const seconds = o.time_enabled === 'seconds' || o.time_enabled === 'milliseconds' ? `:${pad(t.second)}` : '';
  if (/^HH/.test(style)) return `${pad(t.hour)}:${pad(t.minute)}${seconds}`;
  const h12 = t.hour % 12 === 0 ? 12 : t.hour % 12;
  return `${h12}:${pad(t.minute)}${seconds} ${t.hour < 12 ? 'AM' : 'PM'}`;
}

function weekdayOf(t: WallTime): number {
  return new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay();
}

function addDays(t: WallTime, days: number): WallTime {
  const d = new Date(Date.UTC(t.year, t.month - 1, t.day + days));
  return { ...t, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** The extraction units come back as numbers, and name a day, month or quarter. */
function formatExtracted(value: number, unit: string): string | null {
  switch (unit) {
    case 'day-of-week':
      return DAYS[(value - 1 + 7) % 7] ?? String(value);
    case 'month-of-year':
      return MONTHS[value - 1] ?? String(value);
    case 'quarter-of-year':
      return `Q${value}`;
    case 'hour-of-day':
      return `${value % 12 === 0 ? 12 : value % 12}:00 ${value < 12 ? 'AM' : 'PM'}`;
    case 'minute-of-hour':
    case 'day-of-month':
    case 'day-of-year':
    case 'week-of-year':
      return String(value);
    default:
      return null;
  }
}

/** A temporal value as text for its bucketing unit (`unit` of the column); `undefined` unit = the full value. */
export function formatDate(value: unknown, unit?: string, o: DateOptions = {}): string {
  if (typeof value === 'number' && unit) return formatExtracted(value, unit) ?? String(value);
  const t = parseWallTime(value);
  if (!t) return value === null || value === undefined ? '' : String(value);
  const abbreviate = o.date_abbreviate === true;
  switch (unit) {
    case 'year':
      return String(t.year);
    case 'quarter':
      return `Q${Math.floor((t.month - 1) / 3) + 1} ${t.year}`;
    case 'month': {
      const style = o.date_style;
      if (style && /^M\/|\/M\//.test(style)) return style.startsWith('YYYY') ? `${t.year}/${t.month}` : `${t.month}/${t.year}`;
      return `${abbreviate ? MONTHS[t.month - 1].slice(0, 3) : MONTHS[t.month - 1]}, ${t.year}`;
    }
    case 'week': {
      const end = addDays(t, 6);
      return `${formatDateStyle(t, o.date_style, o)} – ${formatDateStyle(end, o.date_style, o)}`;
    }
    case 'day':
      return formatDateStyle(t, o.date_style, o);
    case 'hour':
    case 'minute':
      return `${formatDateStyle(t, o.date_style, o)}, ${formatTime(t, o)}`;
    default: {
      const date = /^\d{4}-/.test(String(value)) ? formatDateStyle(t, o.date_style, o) : '';
      const showTime =
        t.hasTime && o.time_enabled !== null && (o.time_enabled !== undefined || t.hour !== 0 || t.minute !== 0 || t.second !== 0);
      if (!date) return formatTime(t, o);
      return showTime ? `${date}, ${formatTime(t, { ...o, time_enabled: o.time_enabled ?? 'minutes' })}` : date;
    }
  }
}

/** Short date text for a chart axis: "Jan 2024", "2024", "Q1 2024", "Jan 5". */
export function formatDateShort(value: unknown, unit?: string): string {
  if (unit === 'month') {
    const t = parseWallTime(value);
    if (t) return `${MONTHS[t.month - 1].slice(0, 3)} ${t.year}`;
  }
  if (unit === 'day' || unit === 'week') {
    const t = parseWallTime(value);
    if (t) return `${MONTHS[t.month - 1].slice(0, 3)} ${t.day}, ${t.year}`;
  }
  return formatDate(value, unit, { date_abbreviate: true });
}
