import { ValidateBy } from 'class-validator';

/** Metabase's message for a `TemporalString` parameter. */
export const DATE_STRING_MSG = 'value must be a valid date string.';

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO-8601 date (`2022-01-31`) or date-time (`2022-01-31T10:15`, seconds, fraction and `Z` or an offset
 * optional) as the instant it names; a value without a zone is read as UTC, a date as its midnight. null when
 * the text is no such date, or names a day the calendar does not have (`2022-02-30`).
 */
export function parseDateString(text: unknown): Date | null {
  if (typeof text !== 'string') return null;
  const m = PATTERN.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone = 'Z'] = m.slice(1);
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)] as const;
  const utc = new Date(Date.UTC(...parts, Number(frac.padEnd(3, '0').slice(0, 3))));
  utc.setUTCFullYear(parts[0]);
  const fields = [utc.getUTCFullYear(), utc.getUTCMonth(), utc.getUTCDate(), utc.getUTCHours(), utc.getUTCMinutes(), utc.getUTCSeconds()];
  // Year 0 does not exist for Postgres (1 BC is year 0 only in ISO's proleptic count).
  if (parts[0] === 0 || fields.some((v, i) => v !== parts[i])) return null;
  return new Date(utc.getTime() - offsetMinutes(zone) * 60_000);
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  return zone.startsWith('-') ? -minutes : minutes;
}

/** A DTO property that must be a date string (see parseDateString); it stays a string, the service parses it. */
export const DateString = () =>
  ValidateBy({
    name: 'dateString',
    validator: { validate: (v: unknown) => parseDateString(v) !== null, defaultMessage: () => DATE_STRING_MSG },
  });
