import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { applyPattern, datePattern, formatNumber, monthPattern, timePattern, type ColumnSettings } from './column-format';

/**
 * How exported values look. Pure: no time zones are applied (a value shows the wall-clock time the query
 * answered), no locale but English. With `format_rows` false every value stays as the query answered it.
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TEMPORAL_TYPES = new Set([
  'type/Date',
  'type/DateTime',
  'type/DateTimeWithLocalTZ',
  'type/DateTimeWithTZ',
  'type/DateTimeWithZoneOffset',
  'type/Instant',
]);
const ISO = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?)?(?:Z|[+-]\d\d:?\d\d)?$/;
const TIME = /^(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?$/;

type Col = Pick<CompiledColumn, 'base_type'> & { effective_type?: string | null; semantic_type?: string | null; unit?: string };

/** The wall-clock parts of an ISO date or date-time string; `hasTime` false for a bare date. */
export interface TemporalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  hasTime: boolean;
}

export function parseTemporal(value: string): TemporalParts | null {
  const m = ISO.exec(value);
  if (!m) return null;
  return {
    year: +m[1],
    month: +m[2],
    day: +m[3],
    hour: +(m[4] ?? 0),
    minute: +(m[5] ?? 0),
    second: +(m[6] ?? 0),
    millisecond: millis(m[7]),
    hasTime: m[4] !== undefined,
  };
}

function millis(fraction: string | undefined): number {
  return fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
}

/** A date or date-time column (by type or by its temporal bucket); extraction units (`hour-of-day`...) are numbers. */
export function isTemporal(col: Col): boolean {
  return TEMPORAL_TYPES.has(col.effective_type ?? col.base_type) || TEMPORAL_TYPES.has(col.base_type);
}

export function isTime(col: Col): boolean {
  return (col.effective_type ?? col.base_type) === 'type/Time' || col.base_type === 'type/Time';
}

/**
 * A value as exported: readable when `formatRows` (after the column's `column_settings`, see column-format.ts),
 * else as the query answered it. Null stays null.
 */
export function formatValue(value: unknown, col: Col, formatRows: boolean, settings: ColumnSettings = {}): unknown {
  if (value === null || value === undefined || !formatRows) return value ?? null;
  if (typeof value === 'string' && isTemporal(col)) return formatTemporal(value, col, settings) ?? value;
  if (typeof value === 'string' && isTime(col)) return formatTime(value, settings) ?? value;
  if (typeof value === 'number' && col.unit && formatExtraction(value, col.unit) !== null) return formatExtraction(value, col.unit);
  if (typeof value === 'number') return formatNumber(value, col, settings);
  return value;
}

/** `May 1, 2024, 10:15 AM`, `May 1, 2024`, or as the column's unit has it (`May, 2024`, `Q2 - 2024`, `2024`...). */
export function formatTemporal(value: string, col: Col, settings: ColumnSettings = {}): string | null {
  const t = parseTemporal(value);
  if (!t) return null;
  const date = applyPattern(datePattern(settings), t);
  switch (col.unit) {
    case 'year':
      return String(t.year);
    case 'quarter':
      return `Q${Math.ceil(t.month / 3)} - ${t.year}`;
    case 'month':
      return applyPattern(monthPattern(settings), t);
    case 'week': {
      const end = new Date(Date.UTC(t.year, t.month - 1, t.day + 6));
      const last = { year: end.getUTCFullYear(), month: end.getUTCMonth() + 1, day: end.getUTCDate(), hour: 0, minute: 0, second: 0 };
      return `${date} - ${applyPattern(datePattern(settings), last)}`;
    }
    case 'day':
      return date;
    default: {
      const time = timePattern(settings);
      const dateOnly = !t.hasTime || (col.effective_type ?? col.base_type) === 'type/Date' || time === null;
      return dateOnly ? date : `${date}, ${applyPattern(time, t)}`;
    }
  }
}

/** `10:15 AM` for a time of day (or as `time_style` and `time_enabled` say). */
export function formatTime(value: string, settings: ColumnSettings = {}): string | null {
  const m = TIME.exec(value);
  if (!m) return null;
  const parts = { year: 1970, month: 1, day: 1, hour: +m[1], minute: +m[2], second: +(m[3] ?? 0), millisecond: millis(m[4]) };
  return applyPattern(timePattern(settings) ?? 'h:mm A', parts);
}

/** Extracted parts by name where Metabase shows names: weekdays (1 is Sunday), months, quarters, hours. */
export function formatExtraction(value: number, unit: string): string | null {
  if (!Number.isInteger(value)) return null;
  switch (unit) {
    case 'day-of-week':
      return WEEKDAYS[value - 1] ?? null;
    case 'month-of-year':
      return MONTHS[value - 1] ?? null;
    case 'quarter-of-year':
      return value >= 1 && value <= 4 ? `Q${value}` : null;
    case 'hour-of-day':
      return value >= 0 && value <= 23 ? `${value % 12 || 12} ${value < 12 ? 'AM' : 'PM'}` : null;
    default:
      return null;
  }
}
