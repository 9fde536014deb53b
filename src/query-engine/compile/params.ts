import type { SqlParam } from '../types';
import { QueryCompileError } from './contract';

/**
 * Bound values. While a query is compiled each value is written into the SQL text as an opaque marker
 * (`\u0000<n>\u0000`, which no identifier or keyword can contain); `finish` turns the markers into `?` and lists
 * the values in the order they appear. Fragments can then be built in any order and repeated (a breakout in
 * SELECT and GROUP BY) without the parameter list going out of step. No value ever becomes SQL text.
 */
export class Binder {
  private readonly values: SqlParam[] = [];

  bind(value: unknown, clause?: string): string {
    this.values.push(checkParam(value, clause));
    return `\u0000${this.values.length - 1}\u0000`;
  }

  finish(sql: string): { sql: string; params: SqlParam[] } {
    const params: SqlParam[] = [];
    const text = sql.replace(/\u0000(\d+)\u0000/g, (_, i: string) => {
      params.push(this.values[Number(i)]);
      return '?';
    });
    return { sql: text, params };
  }
}

export function hasParams(sql: string): boolean {
  return sql.includes('\u0000');
}

function checkParam(value: unknown, clause?: string): SqlParam {
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QueryCompileError(`Invalid number ${String(value)}${where(clause)}.`, clause);
    return value;
  }
  if (value instanceof Date) return value;
  throw new QueryCompileError(`Invalid value ${short(value)}${where(clause)}: expected a string, number, boolean or null.`, clause);
}

/** A number from the query that goes into SQL text (limit, binning, interval amounts): finite, else an error. */
export function literalNumber(value: unknown, what: string, clause?: string, integer = false): string {
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new QueryCompileError(
      `${what} must be ${integer ? 'a whole number' : 'a finite number'}, got ${short(value)}${where(clause)}.`,
      clause,
    );
  }
  // String(n) of a finite number is digits, '.', '-', 'e', '+': never anything else.
  const text = String(value);
  return text.includes('e') ? value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : text;
}

export function where(clause?: string): string {
  return clause ? ` in "${clause}"` : '';
}

export function short(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
