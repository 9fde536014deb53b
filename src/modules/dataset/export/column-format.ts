/**
 * The column formatting of Metabase's `column_settings` (what a user sets in "Formatting" of a column), pure:
 * text for CSV and JSON, Excel number formats for XLSX. Keys as Metabase stores them:
 * - dates: `date_style` (`MMMM D, YYYY` default, `D MMMM, YYYY`, `dddd, MMMM D, YYYY`, `M/D/YYYY`, `D/M/YYYY`,
 *   `YYYY/M/D`), `date_separator` (`/`, `-`, `.`), `date_abbreviate`, `time_enabled` (`minutes` default, `seconds`,
 *   `milliseconds`, null for none), `time_style` (`h:mm A` default, `HH:mm`, `k:mm`);
 * - numbers: `number_style` (`decimal`, `percent`, `scientific`, `currency`), `currency` (`USD`), `currency_style`
 *   (`symbol`, `code`, `name`), `currency_in_header` (default true: the symbol goes in the header, not in each value),
 *   `number_separators` (decimal then grouping: `.,` default, `,.`, `, `, `.’`, `.` for no grouping), `decimals`,
 *   `scale` (a factor), `prefix`, `suffix`.
 */
export interface ColumnSettings {
  column_title?: unknown;
  date_style?: unknown;
  date_separator?: unknown;
  date_abbreviate?: unknown;
  time_enabled?: unknown;
  time_style?: unknown;
  number_style?: unknown;
  currency?: unknown;
  currency_style?: unknown;
  currency_in_header?: unknown;
  number_separators?: unknown;
  decimals?: unknown;
  scale?: unknown;
  prefix?: unknown;
  suffix?: unknown;
  [key: string]: unknown;
}

interface NumberCol {
  base_type: string;
  effective_type?: string | null;
  semantic_type?: string | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DATE_STYLES = ['MMMM D, YYYY', 'D MMMM, YYYY', 'dddd, MMMM D, YYYY', 'M/D/YYYY', 'D/M/YYYY', 'YYYY/M/D'];
const INTEGER_TYPES = new Set(['type/Integer', 'type/BigInteger']);

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A currency column: `number_style: currency`, or a `type/Currency` column left at its default style. */
export function isCurrency(col: NumberCol, s: ColumnSettings): boolean {
  if (s.number_style !== undefined && s.number_style !== null) return s.number_style === 'currency';
  return col.semantic_type === 'type/Currency';
}

function currencyCode(s: ColumnSettings): string {
  const c = str(s.currency).toUpperCase();
  return /^[A-Z]{3}$/.test(c) ? c : 'USD';
}

/** `$`, `USD` or `US dollars`, per `currency_style` (what Metabase puts in the header). */
export function currencyIdentifier(s: ColumnSettings): string {
  const code = currencyCode(s);
  const style = s.currency_style === 'code' || s.currency_style === 'name' ? s.currency_style : 'symbol';
  if (style === 'code') return code;
  const display = style === 'name' ? 'name' : 'symbol';
  const parts = new Intl.NumberFormat('en-US', { style: 'currency', currency: code, currencyDisplay: display }).formatToParts(2);
  return parts.find((p) => p.type === 'currency')?.value ?? code;
}

function currencyDigits(code: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
}

function decimalsOf(s: ColumnSettings): number | null {
  const d = s.decimals;
  return typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 20 ? d : null;
}

function scaleOf(s: ColumnSettings): number {
  return typeof s.scale === 'number' && Number.isFinite(s.scale) && s.scale !== 0 ? s.scale : 1;
}

/**
 * A number as the column shows it. Without settings: grouped thousands and at most 2 decimals (integers none),
 * ids (PK/FK) ungrouped, as Metabase's export formatter.
 */
export function formatNumber(value: number, col: NumberCol, s: ColumnSettings): string {
  if (!Number.isFinite(value)) return String(value);
  const style = isCurrency(col, s)
    ? 'currency'
    : s.number_style === 'percent' || s.number_style === 'scientific'
      ? s.number_style
      : 'decimal';
  const scaled = value * scaleOf(s);
  const fixed = decimalsOf(s);
  let body: string;
  if (style === 'scientific') {
    body = scientific(scaled, fixed);
  } else {
    const n = style === 'percent' ? scaled * 100 : scaled;
    const integral = INTEGER_TYPES.has(col.effective_type ?? col.base_type) && style !== 'percent';
    const max = fixed ?? (style === 'currency' ? currencyDigits(currencyCode(s)) : integral ? 0 : 2);
    const min = fixed ?? (style === 'currency' ? max : 0);
    const relation = col.semantic_type === 'type/PK' || col.semantic_type === 'type/FK';
    body = grouped(n, min, max, separators(s), !relation || style !== 'decimal');
  }
  const code = currencyCode(s);
  const inValue = style === 'currency' && s.currency_in_header === false;
  let text = body;
  if (style === 'percent') text = `${body}%`;
  if (inValue) text = withCurrency(body, code, s.currency_style);
  return `${str(s.prefix)}${text}${str(s.suffix)}`;
}

function withCurrency(body: string, code: string, style: unknown): string {
  const negative = body.startsWith('-');
  const abs = negative ? body.slice(1) : body;
  const sign = negative ? '-' : '';
  if (style === 'code') return `${sign}${code} ${abs}`;
  if (style === 'name') return `${body} ${currencyIdentifier({ currency: code, currency_style: 'name' })}`;
  return `${sign}${currencyIdentifier({ currency: code })}${abs}`;
}

function separators(s: ColumnSettings): { decimal: string; group: string } {
  const seps = typeof s.number_separators === 'string' && s.number_separators.length >= 1 ? s.number_separators : '.,';
  return { decimal: seps[0], group: seps.slice(1, 2) };
}

function grouped(n: number, min: number, max: number, seps: { decimal: string; group: string }, useGrouping: boolean): string {
  const parts = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: min,
    maximumFractionDigits: max,
    useGrouping: useGrouping && seps.group !== '',
  }).formatToParts(n);
  return parts.map((p) => (p.type === 'group' ? seps.group : p.type === 'decimal' ? seps.decimal : p.value)).join('');
}

/** `1.23e+4`: the given decimals, else at most 2 with trailing zeros dropped. */
function scientific(n: number, fixed: number | null): string {
  if (fixed !== null) return n.toExponential(fixed);
  const [mantissa, exponent] = n.toExponential(2).split('e');
  return `${mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa}e${exponent}`;
}

/** The wall-clock parts of a temporal value (see format-value.ts parseTemporal). */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

/** The date pattern (moment tokens) of the settings: style, separator, abbreviation. */
export function datePattern(s: ColumnSettings): string {
  let pattern = typeof s.date_style === 'string' && DATE_STYLES.includes(s.date_style) ? s.date_style : DATE_STYLES[0];
  const sep = s.date_separator;
  if ((sep === '-' || sep === '.') && pattern.includes('/')) pattern = pattern.replace(/\//g, sep);
  if (s.date_abbreviate === true) pattern = pattern.replace('MMMM', 'MMM').replace('dddd', 'ddd');
  return pattern;
}

/** The month-and-year pattern of a date style: `MMMM, YYYY`, `M/YYYY`, `YYYY/M`. */
export function monthPattern(s: ColumnSettings): string {
  const date = datePattern(s);
  if (date.includes('MMM')) return date.includes('MMMM') ? 'MMMM, YYYY' : 'MMM, YYYY';
  const sep = date.includes('-') ? '-' : date.includes('.') ? '.' : '/';
  return date.startsWith('YYYY') ? `YYYY${sep}M` : `M${sep}YYYY`;
}

/** The time pattern, or null when `time_enabled` is null (the time hidden). */
export function timePattern(s: ColumnSettings): string | null {
  if (s.time_enabled === null) return null;
  const h24 = s.time_style === 'HH:mm' || s.time_style === 'k:mm';
  const secs = s.time_enabled === 'seconds' ? ':ss' : s.time_enabled === 'milliseconds' ? ':ss.SSS' : '';
  return h24 ? `HH:mm${secs}` : `h:mm${secs} A`;
}

/** Writes a moment-style pattern (`MMMM`, `MMM`, `M`, `D`, `YYYY`, `dddd`, `ddd`, `h`, `HH`, `mm`, `ss`, `SSS`, `A`). */
export function applyPattern(pattern: string, t: DateParts): string {
  const weekday = new Date(Date.UTC(t.year, t.month - 1, t.day)).getUTCDay();
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return pattern.replace(/MMMM|MMM|M|D|YYYY|dddd|ddd|HH|h|mm|ss|SSS|A/g, (token) => {
    switch (token) {
      case 'MMMM':
        return MONTHS[t.month - 1];
      case 'MMM':
        return MONTHS[t.month - 1].slice(0, 3);
      case 'M':
        return String(t.month);
      case 'D':
        return String(t.day);
      case 'YYYY':
        return String(t.year);
      case 'dddd':
        return WEEKDAYS[weekday];
      case 'ddd':
        return WEEKDAYS[weekday].slice(0, 3);
      case 'HH':
        return pad(t.hour);
      case 'h':
        return String(t.hour % 12 || 12);
      case 'mm':
        return pad(t.minute);
      case 'ss':
        return pad(t.second);
      case 'SSS':
        return pad(t.millisecond ?? 0, 3);
      default:
        return t.hour < 12 ? 'AM' : 'PM';
    }
  });
}

/** The Excel number format of a moment-style pattern. */
export function excelPattern(pattern: string): string {
  return pattern.replace(/MMMM|MMM|M|D|YYYY|dddd|ddd|HH|h|mm|ss|\.SSS|A|,/g, (token) => {
    switch (token) {
      case 'MMMM':
        return 'mmmm';
      case 'MMM':
        return 'mmm';
      case 'M':
        return 'm';
      case 'D':
        return 'd';
      case 'YYYY':
        return 'yyyy';
      case 'HH':
        return 'hh';
      case '.SSS':
        return '.000';
      case 'A':
        return 'AM/PM';
      default:
        return token;
    }
  });
}

/**
 * The Excel number format of a number column with settings, or null for the General format. The scale is applied to
 * the value itself (see scaledNumber); a currency in the header leaves the cells plain numbers.
 */
export function excelNumberFormat(col: NumberCol, s: ColumnSettings): string | null {
  const currency = isCurrency(col, s);
  const style = currency ? 'currency' : s.number_style;
  const fixed = decimalsOf(s);
  const hasSettings =
    fixed !== null ||
    currency ||
    style === 'percent' ||
    style === 'scientific' ||
    str(s.prefix) !== '' ||
    str(s.suffix) !== '' ||
    s.number_separators !== undefined;
  if (!hasSettings) return null;
  const digits =
    fixed ??
    (currency
      ? currencyDigits(currencyCode(s))
      : style === 'percent' || style === 'scientific'
        ? 2
        : INTEGER_TYPES.has(col.effective_type ?? col.base_type)
          ? 0
          : 2);
  const frac = digits > 0 ? `.${'0'.repeat(digits)}` : '';
  const noGroup = typeof s.number_separators === 'string' && s.number_separators.length === 1;
  let body = style === 'scientific' ? `0${frac}E+00` : `${noGroup ? '0' : '#,##0'}${frac}${style === 'percent' ? '%' : ''}`;
  if (currency && s.currency_in_header === false) {
    const id = s.currency_style === 'code' ? `${currencyCode(s)} ` : currencyIdentifier({ currency: currencyCode(s) });
    body = s.currency_style === 'name' ? `${body} "${currencyIdentifier({ ...s, currency_style: 'name' })}"` : `"${id}"${body}`;
  }
  const quote = (t: string) => (t ? `"${t.replace(/"/g, '')}"` : '');
  return `${quote(str(s.prefix))}${body}${quote(str(s.suffix))}`;
}

/** The number an XLSX cell holds: the value times the column's `scale`. */
export function scaledNumber(value: number, s: ColumnSettings): number {
  return value * scaleOf(s);
}
