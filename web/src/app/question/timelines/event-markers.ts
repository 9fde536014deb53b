import type { ChartMarker } from '../../../visualizations/types';
import type { ResultColumn } from '../../api/dataset';

/** What a marker reads of an event (api/timeline.ts TimelineEvent). */
export interface MarkedEvent {
  id: number;
  name: string;
  timestamp: string;
  archived: boolean;
}

/** The answer's time dimension: the first date column (a breakout's, on a chart's x axis); -1 when there is none. */
export function timeDimension(cols: ResultColumn[]): number {
  return cols.findIndex(
    (c) => /type\/(Date|DateTime|Instant|Time)/.test(String(c.effective_type ?? c.base_type)) && c.source !== 'aggregation',
  );
}

/**
 * The period a timestamp falls in, at the column's unit, as a comparable key: "2024", "2024-Q1", "2024-03",
 * "2024-03-10" (a week: its Sunday), "2024-03-10T14". Read from the written wall time, not converted.
 */
export function periodKey(value: unknown, unit: string | undefined): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}))?/.exec(String(value ?? ''));
  if (!m) return null;
  const [, y, mo, d, h = '00'] = m;
  switch (unit) {
    case 'year':
      return y;
    case 'quarter':
      return `${y}-Q${Math.ceil(Number(mo) / 3)}`;
    case 'month':
      return `${y}-${mo}`;
    case 'week': {
      const day = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
      day.setUTCDate(day.getUTCDate() - day.getUTCDay());
      return day.toISOString().slice(0, 10);
    }
    case 'hour':
    case 'minute':
      return `${y}-${mo}-${d}T${h}`;
    default:
      return `${y}-${mo}-${d}`;
  }
}

/** Each event not archived as a marker at the row x value of its period (events outside the answer's periods are left out). */
export function eventMarkers(events: MarkedEvent[], cols: ResultColumn[], rows: unknown[][]): ChartMarker[] {
  const dim = timeDimension(cols);
  if (dim < 0) return [];
  const unit = typeof cols[dim].unit === 'string' ? cols[dim].unit : undefined;
  const xByPeriod = new Map<string, unknown>();
  for (const r of rows) {
    const key = periodKey(r[dim], unit);
    if (key !== null && !xByPeriod.has(key)) xByPeriod.set(key, r[dim]);
  }
  return events.flatMap((e) => {
    const key = periodKey(e.timestamp, unit);
    if (e.archived || key === null || !xByPeriod.has(key)) return [];
    return [{ key: String(e.id), x: xByPeriod.get(key), label: e.name }];
  });
}
