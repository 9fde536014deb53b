/**
 * Result values are JSON-friendly and identical across engines:
 * - integers are numbers; a 64-bit value outside Number's safe range is a decimal string;
 * - decimals are numbers (precision beyond a double is lost, as in Metabase's JSON);
 * - NaN and ±Infinity become null (JSON has no way to say them);
 * - dates 'YYYY-MM-DD'; times 'HH:MM:SS[.fff[fff]]';
 * - timestamps 'YYYY-MM-DDTHH:MM:SS[.fff[fff]]', with a 'Z' suffix (converted to UTC) when the column is
 *   time-zone aware; the fraction is omitted when zero, else 3 digits, or 6 when there are microseconds;
 * - booleans true/false where the column type says boolean (MySQL `tinyint(1)`, SQLite declared BOOLEAN);
 *   otherwise 0/1 stay numbers;
 * - JSON columns are their JSON text; binary values are base64 strings; values the engine cannot represent in
 *   ISO form (years beyond 9999, BC dates, infinity) are passed through as the engine's text.
 */
import type { SqlParam } from './driver';

export function fractionSuffix(digits: string | undefined): string {
  if (!digits) return '';
  const six = (digits + '000000').slice(0, 6);
  if (six === '000000') return '';
  return six.endsWith('000') ? `.${six.slice(0, 3)}` : `.${six}`;
}

const SQL_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2}){0,2})?$/;

/**
 * '2024-01-02 03:04:05.123+02' (as Postgres, MySQL and SQLite print them) to the ISO convention above.
 * `tz`: the column is time-zone aware; a value without an offset is then taken as UTC.
 */
export function isoFromSqlTimestamp(text: string, tz: boolean): string {
  const m = SQL_TIMESTAMP.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s = '00', frac, offset] = m;
  const fraction = fractionSuffix(frac);
  // A naive column holding text with an offset (SQLite) keeps it: dropping the offset would change the instant.
  if (!tz) return offset ? text : `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}`;
  const offsetMinutes = parseOffset(offset);
  if (offsetMinutes === 0) return `${y}-${mo}-${d}T${h}:${mi}:${s}${fraction}Z`;
  const ms = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s) - offsetMinutes * 60_000;
  const iso = new Date(ms).toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}${fraction}Z` : text;
}

function parseOffset(offset: string | undefined): number {
  if (!offset || offset === 'Z') return 0;
  const sign = offset[0] === '-' ? -1 : 1;
  const digits = offset.slice(1).replace(/:/g, '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || 0));
}

const SQL_TIME = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;

export function isoFromSqlTime(text: string): string {
  const m = SQL_TIME.exec(text);
  return m ? `${m[1]}:${m[2]}:${m[3] ?? '00'}${fractionSuffix(m[4])}` : text;
}

const MICROS_PER_DAY = 86_400_000_000n;
const MAX_ISO_MICROS = 253_402_300_799_999_999n; // 9999-12-31T23:59:59.999999

export function isoFromEpochMicros(micros: bigint, tz: boolean): string | null {
  if (micros < MIN_ISO_MICROS || micros > MAX_ISO_MICROS) return null;
  // Within 2^53 µs of 1970 (the years 1685 to 2255) in doubles, exactly: a 100,000-row DuckDB result spent more
  // time on this conversion in BigInt arithmetic and a Date per value than on anything else but writing the JSON.
  if (micros < MIN_SAFE_MICROS || micros > MAX_SAFE_MICROS) return isoFromBigMicros(micros, tz);
  return isoFromSafeMicros(Number(micros), tz);
}

/** isoFromEpochMicros of a count of microseconds that is a safe integer (the years 1685 to 2255). */
export function isoFromSafeMicros(n: number, tz: boolean): string {
  const sub = ((n % 1e6) + 1e6) % 1e6;
  const seconds = (n - sub) / 1e6;
  const day = Math.floor(seconds / 86_400);
  const s = seconds - day * 86_400;
  const time = `${TWO_DIGITS[Math.floor(s / 3600)]}:${TWO_DIGITS[Math.floor(s / 60) % 60]}:${TWO_DIGITS[s % 60]}`;
  return `${dayPrefix(day)}${time}${microsFraction(sub)}${tz ? 'Z' : ''}`;
}

const MIN_ISO_MICROS = -62_135_596_800_000_000n; // 0001-01-01T00:00:00
const MAX_SAFE_MICROS = BigInt(Number.MAX_SAFE_INTEGER);
const MIN_SAFE_MICROS = -MAX_SAFE_MICROS;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

/** 'YYYY-MM-DDT' of a day since 1970, kept for the days seen last: a result's timestamps share few days. */
const dayPrefixes = new Map<number, string>();
function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

/** fractionSuffix of a count of microseconds (0 to 999,999), without the digits' text. */
function microsFraction(sub: number): string {
  if (sub === 0) return '';
  return sub % 1000 === 0 ? `.${String(sub / 1000).padStart(3, '0')}` : `.${String(sub).padStart(6, '0')}`;
}

function isoFromBigMicros(micros: bigint, tz: boolean): string {
  const sub = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const seconds = (micros - sub) / 1_000_000n;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  return `${iso.slice(0, 19)}${microsFraction(Number(sub))}${tz ? 'Z' : ''}`;
}

export function isoFromEpochDays(days: number): string | null {
  const ms = days * 86_400_000;
  if (!Number.isFinite(ms) || ms < -62_135_596_800_000 || ms > 253_402_214_400_000) return null;
  return new Date(ms).toISOString().slice(0, 10);
}

export function isoFromTimeMicros(micros: bigint): string {
  const m = ((micros % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY;
  const total = Number(m / 1_000_000n);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hh = micros === MICROS_PER_DAY ? 24 : Math.floor(total / 3600);
  return `${pad(hh)}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}${microsFraction(Number(m % 1_000_000n))}`;
}

/** A 64-bit integer (bigint or decimal string) as a number when that is exact, else as its decimal string. */
export function safeInteger(v: bigint | string | number): number | string {
  if (typeof v === 'number') return v;
  const big = typeof v === 'bigint' ? v : BigInt(v);
  return big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : String(big);
}

export function finiteOrNull(v: number): number | null {
  return Number.isFinite(v) ? v : null;
}

/** A decimal as text ('12.30', 'NaN') to a number. */
export function decimalNumber(v: string | number): number | null {
  return finiteOrNull(typeof v === 'number' ? v : Number(v));
}

/** A float32 widened to a double (0.10000000149011612) back to its shortest decimal form (0.1). */
export function float32Number(v: number): number | null {
  if (!Number.isFinite(v)) return null;
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(v.toPrecision(p));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

/** Anything a driver hands back, made JSON-friendly (the fallback when the column type says nothing better). */
export function jsonValue(v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      return finiteOrNull(v);
    case 'bigint':
      return safeInteger(v);
    case 'string':
    case 'boolean':
      return v;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (Array.isArray(v)) return v.map(jsonValue);
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = jsonValue(x);
    return out;
  }
  return String(v);
}

/** The parameter as every driver sends it. */
export function paramValue(p: SqlParam): string | number | bigint | boolean | null {
  if (p instanceof Date) return p.toISOString();
  if (p === undefined) return null;
  return p;
}
