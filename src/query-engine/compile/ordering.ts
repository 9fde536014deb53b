import { QueryCompileError } from './contract';
import type { LevelScope } from './level-scope';
import { hasParams, short } from './params';
import { isObject } from './types';

/**
 * ORDER BY of a level: its `order-by` (an aggregation by its position; in an aggregated level only breakouts and
 * aggregations, a breakout as it is grouped by), then every breakout not ordered yet, ascending. A breakout with
 * bound values is named by its position: `?` repeated as another parameter would not match its GROUP BY.
 * `breakoutSql`: the breakouts as grouped by; `breakoutRaw`: unbucketed, to find a breakout ordered by its column.
 */
export function orderByClause(level: LevelScope, breakoutSql: string[], breakoutRaw: string[], aggregated: boolean): string[] {
  level.clause = 'order-by';
  const out: string[] = [];
  const seen = new Set<string>();
  for (const [i, [dir, ref]] of (level.query['order-by'] ?? []).entries()) {
    const at = `${level.path}.order-by[${i}]`;
    let sql: string;
    if (Array.isArray(ref) && ref[0] === 'aggregation') {
      const index = ref[1];
      const aggCount = (level.query.aggregation ?? []).length;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= aggCount) {
        throw Object.assign(new QueryCompileError(`Unknown aggregation ${short(index)} in "order-by".`, 'order-by'), { at });
      }
      sql = String((level.query.breakout ?? []).length + index + 1);
    } else {
      const r = level.within(at, () => level.resolveRef(ref));
      let pos = breakoutSql.indexOf(r.sql);
      if (pos < 0 && aggregated) pos = breakoutRaw.indexOf(r.raw.sql);
      if (pos >= 0 && aggregated) r.sql = breakoutSql[pos];
      sql = hasParams(r.sql) ? (pos >= 0 ? String(pos + 1) : r.sql) : r.sql;
      if (aggregated && pos < 0) {
        const message = `Can only order by a breakout or an aggregation in an aggregated query in "order-by".`;
        throw Object.assign(new QueryCompileError(message, 'order-by'), { at });
      }
    }
    seen.add(sql);
    out.push(`${sql} ${dir.toUpperCase()}`);
  }
  breakoutSql.forEach((sql, i) => {
    const key = hasParams(sql) ? String(i + 1) : sql;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(`${key} ASC`);
    }
  });
  return out;
}

/** LIMIT / OFFSET of a level from its `limit` and `page` (a page within the limit); '' when it has neither. */
export function limitClause(level: LevelScope): string {
  const q = level.query;
  level.clause = 'limit';
  let limit: number | null = null;
  let offset: number | null = null;
  if (q.limit !== undefined && q.limit !== null) {
    if (typeof q.limit !== 'number' || !Number.isInteger(q.limit) || q.limit < 0)
      throw Object.assign(new QueryCompileError('"limit" must be a whole number, 0 or more.', 'limit'), { at: `${level.path}.limit` });
    limit = q.limit;
  }
  if (q.page !== undefined && q.page !== null) {
    const { page, items } = (isObject(q.page) ? q.page : {}) as { page?: unknown; items?: unknown };
    if (
      typeof page !== 'number' ||
      !Number.isInteger(page) ||
      page < 1 ||
      typeof items !== 'number' ||
      !Number.isInteger(items) ||
      items < 0
    ) {
      const message = '"page" must be {page, items} with whole numbers, page 1 or more.';
      throw Object.assign(new QueryCompileError(message, 'page'), { at: `${level.path}.page` });
    }
    const pageOffset = (page - 1) * items;
    limit = limit === null ? items : Math.min(items, Math.max(0, limit - pageOffset));
    offset = pageOffset;
  }
  return limit === null && offset === null ? '' : level.d.limit(limit, offset);
}
