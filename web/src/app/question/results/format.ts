import type { Column, Settings } from '../../../visualizations';
import { columnFormat, columnTitle, formatValue } from '../../../visualizations/format';
import type { ResultColumn } from '../../api/dataset';

/**
 * A cell as text. A column the question formats (`column_settings`) is shown as its charts show it; otherwise numbers
 * in the reader's locale, dates as they came (ISO), objects as JSON, empty for null.
 */
export function formatCell(v: unknown, col: ResultColumn, settings: Settings = {}): string {
  if (v === null || v === undefined) return '';
  if (formatted(col, settings)) return formatValue(v, col as unknown as Column, settings, { inTable: true });
  if (typeof v === 'number')
    return /Integer|BigInteger/.test(col.base_type) && /PK|FK/.test(String(col.semantic_type ?? '')) ? String(v) : v.toLocaleString();
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** A column's header: its formatted title (with the currency's symbol) when the question formats it. */
export function headerOf(col: ResultColumn, settings: Settings = {}): string {
  return formatted(col, settings) ? columnTitle(col as unknown as Column, settings) : col.display_name;
}

function formatted(col: ResultColumn, settings: Settings): boolean {
  return settings.column_settings !== undefined && Object.keys(columnFormat(col as unknown as Column, settings)).length > 0;
}
