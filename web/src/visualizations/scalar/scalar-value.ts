import { formatValue, isNumeric } from '../format/column';
import type { Column, Dataset, Settings } from '../types';

/** The column a scalar shows: `scalar.field` (a column name), else the first numeric column, else the first. */
export function scalarColumn(cols: Column[], settings: Settings): number {
  const named = cols.findIndex((c) => c.name === settings['scalar.field']);
  if (named >= 0) return named;
  if (cols.length === 1) return 0;
  const agg = cols.findIndex((c) => c.source === 'aggregation');
  if (agg >= 0) return agg;
  const numeric = cols.findIndex((c) => isNumeric(c));
  return numeric >= 0 ? numeric : 0;
}

/** The full and the compact text of a scalar (the compact one when the full one does not fit). */
export function scalarText(
  data: Dataset,
  settings: Settings,
  index = scalarColumn(data.cols, settings),
  row = 0,
): { full: string; compact: string; value: unknown } {
  const value = data.rows[row]?.[index] ?? null;
  const col = data.cols[index];
  return { value, full: formatValue(value, col, settings), compact: formatValue(value, col, settings, { compact: true }) };
}

/** The largest font size (px) at which text of this many characters fits the box. */
export function fitFontSize(text: string, width: number, height: number, max = 72): number {
  const byWidth = (width * 0.9) / Math.max(1, text.length * 0.6);
  return Math.max(12, Math.min(max, byWidth, height * 0.6));
}
