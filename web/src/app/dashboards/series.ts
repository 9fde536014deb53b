import type { Column, Dataset } from '../../visualizations';

/** The displays whose cards can be combined on one chart (Metabase's "Add series"). */
export const COMBINABLE = new Set(['line', 'bar', 'area', 'combo', 'scatter', 'row']);

/** The metric a series adds: its first aggregation, else its last column. */
function metricIndex(d: Dataset): number {
  const i = d.cols.findIndex((c) => c.source === 'aggregation');
  return i >= 0 ? i : d.cols.length - 1;
}

/**
 * Several questions' results on one chart: the first question's x-axis (its first column) and one metric per
 * question, named after the question, joined on the x value (an x one question lacks is empty for it).
 */
export function combineSeries(series: Array<{ name: string; data: Dataset }>): Dataset {
  const [first] = series;
  const x: Column = first.data.cols[0];
  const keys: unknown[] = [];
  const seen = new Map<string, number>();
  const values = series.map((s) => {
    const m = metricIndex(s.data);
    const byX = new Map<string, unknown>();
    for (const row of s.data.rows) {
      const k = JSON.stringify(row[0]);
      if (!seen.has(k)) {
        seen.set(k, keys.length);
        keys.push(row[0]);
      }
      byX.set(k, row[m]);
    }
    return byX;
  });
  const cols: Column[] = [
    x,
    ...series.map((s, i) => ({ ...s.data.cols[metricIndex(s.data)], name: `series_${i}`, display_name: s.name, source: 'aggregation' })),
  ];
  const rows = keys.map((k) => [k, ...values.map((byX) => byX.get(JSON.stringify(k)) ?? null)]);
  return { cols, rows };
}
