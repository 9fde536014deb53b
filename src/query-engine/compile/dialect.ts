import type { Engine } from '../types';
import type { TemporalUnit } from '../mbql/types';
import { QueryCompileError } from './contract';
import type { IntervalUnit, TruncationUnit } from './temporal';

export type ParamType = 'timestamp' | 'date' | 'text';
export type JoinStrategy = 'left-join' | 'right-join' | 'inner-join' | 'full-join';
export type ExtractionUnit = Exclude<TemporalUnit, TruncationUnit | 'default'> | 'year' | 'second';

/**
 * The SQL that differs between engines. The defaults are standard SQL as Postgres speaks it; each dialect
 * (dialects/*.ts) overrides only what its engine does differently. Arguments are SQL fragments already built
 * (identifiers quoted, values bound); numbers passed as `number` have been validated as finite.
 */
export abstract class Dialect {
  abstract readonly engine: Engine;
  /** GROUP BY GROUPING SETS with GROUPING(): Postgres and DuckDB (MariaDB has only WITH ROLLUP, SQLite neither). */
  readonly groupingSets: boolean = false;

  quoteIdent(name: string): string {
    checkIdent(name);
    return `"${name.replace(/"/g, '""')}"`;
  }

  /** A bound value (its marker) given a type the engine needs for comparisons and functions. */
  castParam(marker: string, type: ParamType): string {
    if (type === 'timestamp') return `CAST(${marker} AS TIMESTAMP)`;
    if (type === 'date') return `CAST(${marker} AS DATE)`;
    return marker;
  }

  /** A native query's date template tag: a date, or a timestamp when the value has a time (`unit` minute). */
  castDateTag(marker: string, unit: 'day' | 'minute'): string {
    return this.castParam(marker, unit === 'day' ? 'date' : 'timestamp');
  }

  /** A string literal inside an expression (CASE branches, concat): typed where the engine cannot infer it. */
  textParam(marker: string): string {
    return `CAST(${marker} AS TEXT)`;
  }

  floatCast(sql: string): string {
    return `CAST(${sql} AS DOUBLE PRECISION)`;
  }

  textCast(sql: string): string {
    return `CAST(${sql} AS TEXT)`;
  }

  intDiv(a: string, b: string): string {
    return `(${a} / ${b})`;
  }

  /** Start of the unit containing x, as a timestamp (a date for date columns); weeks start on Sunday. */
  truncate(x: string, unit: TruncationUnit, isDate: boolean): string {
    const ts = isDate ? `CAST(${x} AS TIMESTAMP)` : x;
    const t = unit === 'week' ? `(date_trunc('week', ${ts} + INTERVAL '1 day') - INTERVAL '1 day')` : `date_trunc('${unit}', ${ts})`;
    return isDate ? `CAST(${t} AS DATE)` : t;
  }

  /** Integer fields of a timestamp. day-of-week: 1 = Sunday ... 7 = Saturday. */
  extract(x: string, unit: ExtractionUnit): string {
    const part: Partial<Record<ExtractionUnit, string>> = {
      'minute-of-hour': 'minute',
      'hour-of-day': 'hour',
      'day-of-month': 'day',
      'day-of-year': 'doy',
      'month-of-year': 'month',
      'quarter-of-year': 'quarter',
      year: 'year',
      second: 'second',
    };
    if (unit === 'day-of-week') return `(CAST(EXTRACT(dow FROM ${x}) AS INTEGER) + 1)`;
    if (unit === 'week-of-year') return this.usWeekOfYear(x);
    return `CAST(EXTRACT(${part[unit]} FROM ${x}) AS INTEGER)`;
  }

  /**
   * Week of the year with weeks starting on Sunday and week 1 the one holding January 1 (Metabase's default):
   * the day of the year of the week's Sunday, counted in whole weeks.
   */
  protected usWeekOfYear(x: string): string {
    return `(${this.intDiv(`(${this.extract(x, 'day-of-year')} - ${this.extract(x, 'day-of-week')} + 6)`, '7')} + 1)`;
  }

  /**
   * A timestamp as wall-clock time in the report time zone (`zone`: a validated IANA name as a SQL literal), or null when the
   * engine cannot convert to named zones (the compiler then buckets in UTC). `aware`: a time-zone-aware column.
   */
  convertTimezone(x: string, zone: string, aware: boolean): string | null {
    return aware ? `timezone(${zone}, ${x})` : `timezone(${zone}, timezone('UTC', ${x}))`;
  }

  now(): string {
    return 'LOCALTIMESTAMP';
  }

  datetimeAdd(x: string, n: number, unit: IntervalUnit): string {
    return `(${x} + ${n} * INTERVAL '1 ${unit}')`;
  }

  epochSeconds(x: string): string {
    return `EXTRACT(EPOCH FROM ${x})`;
  }

  /** Toward zero, as an integer. */
  truncNumber(x: string): string {
    return `CAST(TRUNC(${x}) AS BIGINT)`;
  }

  round(x: string): string {
    return `ROUND(${x})`;
  }

  /** Parts are text already (the compiler casts the others with textCast); NULL when any part is. */
  concat(parts: string[]): string {
    return `(${parts.join(' || ')})`;
  }

  length(x: string): string {
    return `LENGTH(${x})`;
  }

  /** The pattern (a bound value) matching `value` as a prefix, suffix or substring; LIKE with `\\` escapes. */
  likePattern(value: string, kind: 'starts' | 'ends' | 'contains', caseSensitive: boolean): string {
    void caseSensitive;
    const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
    return kind === 'starts' ? `${escaped}%` : kind === 'ends' ? `%${escaped}` : `%${escaped}%`;
  }

  /** `pattern` is the bound likePattern. */
  like(x: string, pattern: string, caseSensitive: boolean): string {
    return caseSensitive ? `${x} LIKE ${pattern} ESCAPE '\\'` : `LOWER(${x}) LIKE LOWER(${pattern}) ESCAPE '\\'`;
  }

  stddev(x: string): string {
    return `STDDEV_POP(${x})`;
  }

  variance(x: string): string {
    return `VAR_POP(${x})`;
  }

  avg(x: string): string {
    return `AVG(${x})`;
  }

  /** p in [0, 1], validated. */
  percentile(x: string, p: number): string {
    return `PERCENTILE_CONT(${p}) WITHIN GROUP (ORDER BY ${x})`;
  }

  median(x: string): string {
    return this.percentile(x, 0.5);
  }

  checkJoin(strategy: JoinStrategy, alias: string): void {
    void strategy;
    void alias;
  }

  joinKeyword(strategy: JoinStrategy): string {
    return { 'left-join': 'LEFT JOIN', 'right-join': 'RIGHT JOIN', 'inner-join': 'INNER JOIN', 'full-join': 'FULL OUTER JOIN' }[strategy];
  }

  /**
   * A column of the outermost SELECT, so that values come back the same on every engine (SQLite returns
   * computed timestamps as text in its own format). `direct`: a plain reference to a stored column.
   */
  outputColumn(sql: string, baseType: string, direct: boolean): string {
    void baseType;
    void direct;
    return sql;
  }

  limit(limit: number | null, offset: number | null): string {
    return [limit !== null ? `LIMIT ${limit}` : '', offset ? `OFFSET ${offset}` : ''].filter(Boolean).join(' ');
  }
}

export function checkIdent(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.includes('\u0000')) {
    throw new QueryCompileError(`Invalid identifier ${JSON.stringify(name)}.`);
  }
}
