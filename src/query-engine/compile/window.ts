import type { InnerQuery } from '../mbql/types';
import { isTemporal, type Resolved } from './types';

/** What the window of `offset` is built from: the level's breakouts and order, as Metabase's SQL compiler builds it. */
export interface WindowInputs {
  query: InnerQuery;
  /** The breakouts as compiled (GROUP BY), resolved (their temporal units), and unbucketed (their raw column). */
  breakoutSql: string[];
  breakoutResolved: Resolved[];
  breakoutRaw: string[];
  /** The SQL of the level's aggregation `index` (one that is not a window itself). */
  aggregationSql(clause: unknown, index: number): string;
  resolveRef(ref: unknown): Resolved;
}

/**
 * The window of `offset` (LAG / LEAD), as Metabase's SQL compiler builds it: with several breakouts, partitioned by
 * all of them but one, the finest temporal breakout (the leftmost of the finest; else the last breakout); ordered as
 * the query's rows are (its order-by, aggregations that are not windows themselves as their expression, then the
 * breakouts left). Without breakouts the query's order-by alone; null without either (one row, no other).
 */
export function offsetWindow(w: WindowInputs): string | null {
  const breakouts = w.breakoutSql;
  let partition: string[] = [];
  if (breakouts.length > 1) {
    const keep = finestTemporal(w.breakoutResolved) ?? breakouts.length - 1;
    partition = breakouts.filter((_, i) => i !== keep);
  }
  const order: string[] = [];
  const seen = new Set<string>(partition);
  const add = (sql: string, dir: string) => {
    if (seen.has(sql)) return;
    seen.add(sql);
    order.push(`${sql} ${dir}`);
  };
  const aggregations = w.query.aggregation ?? [];
  for (const [dir, ref] of w.query['order-by'] ?? []) {
    if (Array.isArray(ref) && ref[0] === 'aggregation') {
      const ag = aggregations[ref[1] as number];
      // An unknown index is refused with the order-by; a window is not an order of rows (Metabase leaves them out too).
      if (ag === undefined || hasWindow(ag)) continue;
      add(w.aggregationSql(ag, ref[1] as number), dir.toUpperCase());
    } else {
      const r = w.resolveRef(ref);
      const pos = Math.max(breakouts.indexOf(r.sql), w.breakoutRaw.indexOf(r.raw.sql));
      add(pos >= 0 ? breakouts[pos] : r.sql, dir.toUpperCase());
    }
  }
  for (const sql of breakouts) add(sql, 'ASC');
  // No breakouts nor order-by: the aggregation has one row, and no other (null: Metabase refuses this case, which a
  // pivot's grand total needs; MariaDB wants an order for LAG / LEAD).
  return order.length ? `${partition.length ? `PARTITION BY ${partition.join(', ')} ` : ''}ORDER BY ${order.join(', ')}` : null;
}

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
