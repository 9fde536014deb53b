import { formatValue, isNumeric } from '../format/column';
import { seriesColor } from '../theme';
import type { Dataset, Settings } from '../types';

/**
 * Pie slices from `pie.dimension` and `pie.metric` (column names; else the first non-numeric and the first
 * numeric column): summed per dimension value, largest first (`pie.sort_rows`), slices under
 * `pie.slice_threshold` percent (default 2.5) merged into "Other", colors from `pie.colors`. Pure.
 */
export interface Slice {
  key: string;
  name: string;
  value: number;
  color: string;
  /** The first row of the slice (null for "Other"). */
  rowIndex: number | null;
}

export interface PieModel {
  slices: Slice[];
  total: number;
  dimension: number;
  metric: number;
}

export function pieColumns(data: Dataset, settings: Settings, prefix = 'pie'): { dimension: number; metric: number } {
  const { cols } = data;
  const named = (key: string) => {
    const v = settings[`${prefix}.${key}`];
    const name = Array.isArray(v) ? v[0] : v;
    return cols.findIndex((c) => c.name === name);
  };
  let dimension = named('dimension');
  let metric = named('metric');
  if (dimension < 0)
    dimension = Math.max(
      0,
      cols.findIndex((c) => c.source === 'breakout' || !isNumeric(c)),
    );
  if (metric < 0) {
    metric = cols.findIndex((c, i) => i !== dimension && c.source === 'aggregation');
    if (metric < 0) metric = cols.findIndex((c, i) => i !== dimension && isNumeric(c));
    if (metric < 0) metric = cols.length > 1 ? 1 : 0;
  }
  return { dimension, metric };
}

export function buildPie(data: Dataset, settings: Settings): PieModel {
  const { dimension, metric } = pieColumns(data, settings);
  const col = data.cols[dimension];
  const colors = (settings['pie.colors'] ?? {}) as Record<string, string>;
  const byKey = new Map<string, Slice>();
  data.rows.forEach((row, r) => {
    const key = row[dimension] === null || row[dimension] === undefined ? '(empty)' : String(row[dimension]);
    const value = Number(row[metric]) || 0;
    const s = byKey.get(key);
    if (s) s.value += value;
    else
      byKey.set(key, {
        key,
        name: row[dimension] === null ? '(empty)' : formatValue(row[dimension], col, settings),
        value,
        color: '',
        rowIndex: r,
      });
  });
  let slices = [...byKey.values()].filter((s) => s.value > 0);
  if (settings['pie.sort_rows'] !== false) slices.sort((a, b) => b.value - a.value);
  const total = slices.reduce((n, s) => n + s.value, 0);
  const threshold = Number(settings['pie.slice_threshold'] ?? 2.5) / 100;
  const small = slices.filter((s) => total > 0 && s.value / total < threshold);
  if (small.length > 1) {
    slices = slices.filter((s) => !small.includes(s));
    slices.push({ key: 'Other', name: 'Other', value: small.reduce((n, s) => n + s.value, 0), color: '#949AAB', rowIndex: null });
  }
  slices.forEach((s, i) => {
    if (!s.color) s.color = colors[s.key] ?? seriesColor(i);
  });
  return { slices, total, dimension, metric };
}
