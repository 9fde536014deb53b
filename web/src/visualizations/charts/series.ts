import { isDateExtraction, isNumeric, isTemporal } from '../format/column';
import { seriesColor } from '../theme';
import type { Column, Dataset, Settings } from '../types';

/**
 * The series of a cartesian chart (bar, line, area, combo, row, scatter, waterfall) from rows, cols and Metabase's
 * settings: `graph.dimensions` (x, then an optional breakout that splits the metric into one series per value),
 * `graph.metrics`, `series_settings` (title, color, display per series), `stackable.stack_type`.
 * Pure: no ECharts here, so the unit tests read the same series the chart draws.
 */

export type SeriesDisplay = 'bar' | 'line' | 'area' | 'scatter';

export interface Series {
  /** The key `series_settings` uses: the metric's column name, or the breakout value as text. */
  key: string;
  name: string;
  color: string;
  display: SeriesDisplay;
  /** One value per x value (null where the rows have none). */
  values: Array<number | null>;
  /** The row each value came from, for clicks. */
  rowIndexes: Array<number | null>;
  /** The metric column's index in `cols`. */
  metric: number;
  /** Bubble sizes for scatter (`scatter.bubble`). */
  sizes?: Array<number | null>;
}

export interface CartesianModel {
  /** The x column and, with a breakout, the column that splits series. */
  dimension: number;
  breakout: number | null;
  metrics: number[];
  xValues: unknown[];
  series: Series[];
  stackType: 'stacked' | 'normalized' | null;
  /** True when the x axis is a continuous number axis (scatter, or numeric dimensions of a line). */
  numericX: boolean;
}

interface SeriesSetting {
  title?: string;
  color?: string;
  display?: string;
  [k: string]: unknown;
}

const colIndex = (cols: Column[], name: unknown): number => (typeof name === 'string' ? cols.findIndex((c) => c.name === name) : -1);

/** The dimensions from `graph.dimensions`, else the first breakout or non-numeric columns (up to two). */
export function pickDimensions(cols: Column[], settings: Settings): number[] {
  const named = ((settings['graph.dimensions'] as unknown[]) ?? []).map((n) => colIndex(cols, n)).filter((i) => i >= 0);
  if (named.length) return named.slice(0, 2);
  const breakouts = cols.map((c, i) => (c.source === 'breakout' ? i : -1)).filter((i) => i >= 0);
  if (breakouts.length) return breakouts.slice(0, 2);
  const first = cols.findIndex((c) => !isNumeric(c) || isTemporal(c) || isDateExtraction(c));
  return [first >= 0 ? first : 0];
}

/** The metrics from `graph.metrics`, else the aggregations, else every numeric column that is not a dimension. */
export function pickMetrics(cols: Column[], settings: Settings, dimensions: number[]): number[] {
  const named = ((settings['graph.metrics'] as unknown[]) ?? []).map((n) => colIndex(cols, n)).filter((i) => i >= 0);
  if (named.length) return named;
  const aggregations = cols.map((c, i) => (c.source === 'aggregation' ? i : -1)).filter((i) => i >= 0);
  if (aggregations.length) return aggregations;
  return cols.map((c, i) => (isNumeric(c) && !dimensions.includes(i) ? i : -1)).filter((i) => i >= 0);
}

export function seriesSetting(settings: Settings, key: string, col?: Column): SeriesSetting {
  const all = (settings['series_settings'] ?? {}) as Record<string, SeriesSetting>;
  return all[key] ?? (col ? all[col.display_name] : undefined) ?? {};
}

const toNumber = (v: unknown): number | null =>
  v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null;
const keyOf = (v: unknown): string => (v === null || v === undefined ? '(empty)' : String(v));

function defaultDisplay(display: string, index: number): SeriesDisplay {
  if (display === 'line') return 'line';
  if (display === 'area') return 'area';
  if (display === 'scatter') return 'scatter';
  if (display === 'combo') return index === 0 ? 'bar' : 'line';
  return 'bar';
}

function asSeriesDisplay(value: unknown, fallback: SeriesDisplay): SeriesDisplay {
  return value === 'bar' || value === 'line' || value === 'area' || value === 'scatter' ? value : fallback;
}

export function buildCartesian(display: string, data: Dataset, settings: Settings): CartesianModel {
  const { cols, rows } = data;
  const dims = pickDimensions(cols, settings);
  const dimension = dims[0] ?? 0;
  const breakout = dims.length > 1 ? dims[1] : null;
  const metrics = pickMetrics(cols, settings, dims);
  const numericX = display === 'scatter' && isNumeric(cols[dimension]);

  // A scatter keeps every row as its own point (two products can share a price); other charts share an x per value.
  const points = display === 'scatter';
  const xValues: unknown[] = [];
  const xIndex = new Map<string, number>();
  const rowX: number[] = [];
  for (const row of rows) {
    const k = keyOf(row[dimension]);
    if (points || !xIndex.has(k)) {
      xIndex.set(k, xValues.length);
      xValues.push(row[dimension]);
    }
    rowX.push(xIndex.get(k) as number);
  }
  const empty = <T>(): Array<T | null> => xValues.map(() => null);
  const bubble = colIndex(cols, settings['scatter.bubble']);

  const series: Series[] = [];
  if (breakout !== null) {
    // One series per breakout value, of the first metric.
    const metric = metrics[0];
    const byKey = new Map<string, Series>();
    rows.forEach((row, r) => {
      const key = keyOf(row[breakout]);
      let s = byKey.get(key);
      if (!s) {
        s = { key, name: key, color: '', display: 'bar', values: empty(), rowIndexes: empty(), metric };
        byKey.set(key, s);
        series.push(s);
      }
      const x = rowX[r];
      s.values[x] = toNumber(row[metric]);
      s.rowIndexes[x] = r;
    });
  } else {
    for (const metric of metrics) {
      const s: Series = {
        key: cols[metric].name,
        name: cols[metric].display_name || cols[metric].name,
        color: '',
        display: 'bar',
        values: empty(),
        rowIndexes: empty(),
        metric,
      };
      if (bubble >= 0) s.sizes = empty();
      rows.forEach((row, r) => {
        const x = rowX[r];
        s.values[x] = toNumber(row[metric]);
        s.rowIndexes[x] = r;
        if (s.sizes) s.sizes[x] = toNumber(row[bubble]);
      });
      series.push(s);
    }
  }
  series.forEach((s, i) => {
    const own = seriesSetting(settings, s.key, breakout === null ? cols[s.metric] : undefined);
    s.name = own.title || s.name;
    s.color = own.color || seriesColor(i);
    s.display = asSeriesDisplay(own.display, defaultDisplay(display, i));
  });
  return { dimension, breakout, metrics, xValues, series, stackType: stackType(display, settings, series.length), numericX };
}

/** `stackable.stack_type`; an area chart with several series stacks by default, as Metabase's. */
export function stackType(display: string, settings: Settings, seriesCount: number): 'stacked' | 'normalized' | null {
  const v = settings['stackable.stack_type'];
  if (v === 'stacked' || v === 'normalized') return v;
  if (v === undefined && display === 'area' && seriesCount > 1) return 'stacked';
  return null;
}

/** Each series' share of the x value's total, for a 100% stacked chart. */
export function normalize(series: Series[]): Series[] {
  const n = series[0]?.values.length ?? 0;
  const totals = Array.from({ length: n }, (_, x) => series.reduce((sum, s) => sum + Math.abs(s.values[x] ?? 0), 0));
  return series.map((s) => ({ ...s, values: s.values.map((v, x) => (v === null ? null : totals[x] ? v / totals[x] : 0)) }));
}

/** Least-squares straight line through a series' points (x = position), the trend line Metabase draws. */
export function trendLine(values: Array<number | null>): Array<number | null> {
  const pts = values.map((v, x) => [x, v] as const).filter((p): p is readonly [number, number] => p[1] !== null);
  if (pts.length < 2) return values.map(() => null);
  const n = pts.length;
  const sx = pts.reduce((a, [x]) => a + x, 0);
  const sy = pts.reduce((a, [, y]) => a + y, 0);
  const sxy = pts.reduce((a, [x, y]) => a + x * y, 0);
  const sxx = pts.reduce((a, [x]) => a + x * x, 0);
  const denom = n * sxx - sx * sx;
  const slope = denom === 0 ? 0 : (n * sxy - sx * sy) / denom;
  const intercept = (sy - slope * sx) / n;
  return values.map((_, x) => intercept + slope * x);
}

/** Waterfall steps: an invisible base, the rise or fall of each step, and the total (`waterfall.show_total`). */
export interface WaterfallStep {
  base: number;
  value: number;
  kind: 'increase' | 'decrease' | 'total';
}

export function waterfallSteps(values: Array<number | null>, showTotal = true): WaterfallStep[] {
  const steps: WaterfallStep[] = [];
  let running = 0;
  for (const v of values) {
    const d = v ?? 0;
    const from = running;
    running += d;
    steps.push({ base: Math.min(from, running), value: Math.abs(d), kind: d >= 0 ? 'increase' : 'decrease' });
  }
  if (showTotal) steps.push({ base: Math.min(0, running), value: Math.abs(running), kind: 'total' });
  return steps;
}
