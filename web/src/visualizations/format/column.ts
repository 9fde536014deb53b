import type { Column, Settings } from '../types';
import { DateOptions, formatDate, formatDateShort } from './date';
import { formatNumber, NumberOptions } from './number';

/** Per-column settings of `column_settings` plus the title, as one bag (keys as Metabase stores them). */
export type ColumnFormat = NumberOptions &
  DateOptions & {
    column_title?: string;
    view_as?: string | null;
    link_text?: string;
    show_mini_bar?: boolean;
    [k: string]: unknown;
  };

const NUMERIC = /^type\/(Integer|BigInteger|Float|Decimal|Number|Currency)$/;
const TEMPORAL = new RegExp(
  '^type/(Date|DateTime|DateTimeWithTZ|DateTimeWithLocalTZ|DateTimeWithZoneID|DateTimeWithZoneOffset' +
    '|Time|TimeWithTZ|TimeWithLocalTZ|Temporal)$',
);
/** Units whose values are numbers (day-of-week 1-7 ...), not dates. */
const EXTRACTION_UNITS = new Set([
  'day-of-week',
  'month-of-year',
  'quarter-of-year',
  'hour-of-day',
  'minute-of-hour',
  'day-of-month',
  'day-of-year',
  'week-of-year',
]);

export function isNumeric(col: Column): boolean {
  if (col.unit && EXTRACTION_UNITS.has(col.unit)) return false;
  return NUMERIC.test(col.base_type) || NUMERIC.test(String(col.effective_type ?? ''));
}

export function isTemporal(col: Column): boolean {
  if (col.unit && !EXTRACTION_UNITS.has(col.unit) && col.unit !== 'default') return true;
  return TEMPORAL.test(col.base_type) || TEMPORAL.test(String(col.effective_type ?? ''));
}

/** An extracted part of a date (day of week, month of year ...): numbers that name something. */
export function isDateExtraction(col: Column): boolean {
  return !!col.unit && EXTRACTION_UNITS.has(col.unit);
}

export function isIdentifier(col: Column): boolean {
  return col.semantic_type === 'type/PK' || col.semantic_type === 'type/FK';
}

export function isCoordinate(col: Column, axis: 'lat' | 'lon'): boolean {
  if (axis === 'lat') return col.semantic_type === 'type/Latitude' || /^lat(itude)?$/i.test(col.name);
  return col.semantic_type === 'type/Longitude' || /^(lon|lng|long|longitude)$/i.test(col.name);
}

/** True when a `column_settings` key (`["name","X"]` or `["ref",["field",12,null]]`) names this column. */
export function keyMatches(key: string, col: Column): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(key);
  } catch {
    return false;
  }
  if (!Array.isArray(parsed)) return false;
  if (parsed[0] === 'name') return parsed[1] === col.name;
  if (parsed[0] !== 'ref' || !Array.isArray(parsed[1])) return false;
  const ref = parsed[1] as unknown[];
  if (JSON.stringify(ref) === JSON.stringify(col.field_ref)) return true;
  const own = Array.isArray(col.field_ref) ? (col.field_ref as unknown[]) : null;
  if (ref[0] === 'field')
    return (
      (own !== null && own[0] === 'field' && own[1] === ref[1]) || ref[1] === col.name || (typeof ref[1] === 'number' && ref[1] === col.id)
    );
  if (ref[0] === 'aggregation' && own) return own[0] === 'aggregation' && own[1] === ref[1];
  if (ref[0] === 'expression') return ref[1] === col.name;
  return false;
}

export function columnFormat(col: Column, settings: Settings): ColumnFormat {
  const all = (settings['column_settings'] ?? {}) as Record<string, ColumnFormat>;
  let out: ColumnFormat = {};
  for (const [key, value] of Object.entries(all)) if (value && keyMatches(key, col)) out = { ...out, ...value };
  return out;
}

export function columnTitle(col: Column, settings: Settings): string {
  const f = columnFormat(col, settings);
  const title = f.column_title || col.display_name || col.name;
  if (f.number_style === 'currency' && f.currency && f.currency_in_header !== false && f.currency_style !== 'code')
    return `${title} (${currencySymbol(f.currency)})`;
  return title;
}

function currencySymbol(code: string): string {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).formatToParts(0).find((p) => p.type === 'currency')?.value ??
      code
    );
  } catch {
    return code;
  }
}

export interface FormatContext {
  /** Short forms for axes and tooltips: compact numbers, abbreviated dates. */
  compact?: boolean;
  /** Currency shown in the column header already (tables): numbers drop the symbol. */
  inTable?: boolean;
}

export function formatValue(value: unknown, col: Column | undefined, settings: Settings = {}, ctx: FormatContext = {}): string {
  if (value === null || value === undefined) return ctx.inTable ? '' : '(empty)';
  if (!col) return String(value);
  const f = columnFormat(col, settings);
  if (isTemporal(col) || isDateExtraction(col)) return ctx.compact ? formatDateShort(value, col.unit) : formatDate(value, col.unit, f);
  if (typeof value === 'number' || (typeof value === 'string' && isNumeric(col) && value.trim() !== '' && !Number.isNaN(Number(value)))) {
    const n = Number(value);
    if (isIdentifier(col) || (!isNumeric(col) && typeof value !== 'number')) return String(value);
    if (isIdentifier(col) || /^type\/(ZipCode|Latitude|Longitude)$/.test(String(col.semantic_type))) return String(value);
    const opts: NumberOptions = { ...f, compact: ctx.compact };
    if (!f.number_style && col.semantic_type === 'type/Percentage') opts.number_style = 'percent';
    // In a table the currency sits in the header (Metabase's default), so cells show plain numbers with 2 decimals.
    if (ctx.inTable && opts.number_style === 'currency' && f.currency_in_header !== false && f.currency_style !== 'code') {
      return formatNumber(n, { ...opts, number_style: 'decimal', decimals: opts.decimals ?? 2 });
    }
    return formatNumber(n, opts);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A formatter bound to one column, for axis labels and series names. */
export function formatterFor(col: Column | undefined, settings: Settings, ctx: FormatContext = {}): (v: unknown) => string {
  return (v) => formatValue(v, col, settings, ctx);
}
