import { isTemporal, type Resolved } from './types';

/** What the window of `offset` (Level.offsetWindow) is built from, as Metabase's SQL compiler builds it. */

/** Temporal units from the finest (Metabase's granularity of a temporal breakout); an unbucketed date or time is finer. */
const GRANULARITY: Record<string, number> = { minute: 1, hour: 2, day: 3, week: 4, month: 5, quarter: 6, year: 7 };

/** The leftmost of the breakouts with the finest temporal granularity, if any is temporal. */
export function finestTemporal(breakouts: Resolved[]): number | undefined {
  let finest: number | undefined;
  let best = Infinity;
  breakouts.forEach((r, i) => {
    const unit = r.unit;
    const g = unit === undefined || unit === 'default' ? (isTemporal(r.type) ? 0 : undefined) : GRANULARITY[unit];
    if (g !== undefined && g < best) {
      best = g;
      finest = i;
    }
  });
  return finest;
}

/** Whether an aggregation computes over a window of rows (cumulative ones, offset), not over its group. */
export function hasWindow(x: unknown): boolean {
  return Array.isArray(x) && ((typeof x[0] === 'string' && ['cum-count', 'cum-sum', 'offset'].includes(x[0])) || x.some(hasWindow));
}
