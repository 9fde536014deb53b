import { MessageError } from '../../common/errors/api-errors';
import type { Engine } from '../../query-engine/execute/drivers/driver';
import type { WriteScope } from '../row-security';
import { quoteIdent } from '../warehouse';
import { bindable, type WriteParam } from './action-sql';

type Given = Array<{ col: { name: string }; value: unknown }>;

/** What an implicit action may write for a caller: every row (no policy on its table) or the filtered ones. */
export type RowScope = Extract<WriteScope, { kind: 'open' | 'filtered' }>;

export const OPEN: RowScope = { kind: 'open' };

/**
 * The condition a row must meet to be written, for an UPDATE's or DELETE's WHERE (after the primary key): any one
 * filter, every condition of it; values bound. Null when every row may be written.
 */
export function scopeCondition(engine: Engine, scope: RowScope): { sql: string; params: WriteParam[] } | null {
  if (scope.kind === 'open') return null;
  const params: WriteParam[] = [];
  const filters = scope.filters.map((conditions) =>
    conditions
      .map(({ column, values }) => {
        if (!values.length) return '1 = 0';
        params.push(...values.map(bindable));
        return `${quoteIdent(engine, column)} IN (${values.map(() => '?').join(', ')})`;
      })
      .join(' AND '),
  );
  return { sql: `(${filters.map((f) => `(${f})`).join(' OR ')})`, params };
}

/** A new row must be one the caller's policies show them: every condition of some filter met by the values given. */
export function assertCreatable(scope: RowScope, given: Given): void {
  if (scope.kind === 'open') return;
  if (scope.filters.some((conditions) => conditions.every((c) => allowed(c, valueOf(given, c.column))))) return;
  const columns = [...new Set(scope.filters.flat().map((c) => c.column))].join(', ');
  throw new MessageError(`You may only create rows your row security policy shows you: set ${columns} to one of your values.`, 403);
}

/** An update may not move a row out of what the caller sees: a column a policy filters on keeps one of their values. */
export function assertUpdatable(scope: RowScope, sets: Given): void {
  if (scope.kind === 'open') return;
  const conditions = scope.filters.flat();
  for (const { col, value } of sets) {
    const on = conditions.filter((c) => c.column === col.name);
    if (on.length && !on.some((c) => allowed(c, value)))
      throw new MessageError(`You may only set ${col.name} to one of your values: your row security policy filters on it.`, 403);
  }
}

function valueOf(given: Given, column: string): unknown {
  return given.find((g) => g.col.name === column)?.value;
}

/** Attribute values are typed by their column (numbers for numeric ones); form values may come as text. */
function allowed(condition: { values: Array<string | number | boolean> }, value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return condition.values.some((v) => String(v) === String(value));
}
