import { QueryCompileError } from '../contract';
import { checkIdent, Dialect, type ExtractionUnit, type JoinStrategy, type ParamType } from '../dialect';
import type { IntervalUnit, TruncationUnit } from '../temporal';

/** MySQL and MariaDB (the driver sets the session time zone to UTC). */
export class MysqlDialect extends Dialect {
  readonly engine = 'mysql' as const;

  override quoteIdent(name: string): string {
    checkIdent(name);
    return `\`${name.replace(/`/g, '``')}\``;
  }

  override castParam(marker: string, type: ParamType): string {
    if (type === 'timestamp') return `CAST(${marker} AS DATETIME)`;
    if (type === 'date') return `CAST(${marker} AS DATE)`;
    return marker;
  }

  override textParam(marker: string): string {
    return marker;
  }

  override floatCast(sql: string): string {
    return `CAST(${sql} AS DOUBLE)`;
  }

  override textCast(sql: string): string {
    return `CAST(${sql} AS CHAR)`;
  }

  override intDiv(a: string, b: string): string {
    return `(${a} DIV ${b})`;
  }

  override truncate(x: string, unit: TruncationUnit, isDate: boolean): string {
    const asDatetime = (d: string) => (isDate ? d : `CAST(${d} AS DATETIME)`);
    switch (unit) {
      case 'minute':
        return `CAST(DATE_FORMAT(${x}, '%Y-%m-%d %H:%i:00') AS DATETIME)`;
      case 'hour':
        return `CAST(DATE_FORMAT(${x}, '%Y-%m-%d %H:00:00') AS DATETIME)`;
      case 'day':
        return asDatetime(`DATE(${x})`);
      case 'week':
        return asDatetime(`DATE_SUB(DATE(${x}), INTERVAL (DAYOFWEEK(${x}) - 1) DAY)`);
      case 'month':
        return asDatetime(`CAST(DATE_FORMAT(${x}, '%Y-%m-01') AS DATE)`);
      case 'quarter':
        return asDatetime(`DATE_ADD(MAKEDATE(YEAR(${x}), 1), INTERVAL (QUARTER(${x}) - 1) QUARTER)`);
      case 'year':
        return asDatetime(`MAKEDATE(YEAR(${x}), 1)`);
    }
  }

  override extract(x: string, unit: ExtractionUnit): string {
    const fn: Partial<Record<ExtractionUnit, string>> = {
      'minute-of-hour': 'MINUTE',
      'hour-of-day': 'HOUR',
      'day-of-week': 'DAYOFWEEK',
      'day-of-month': 'DAYOFMONTH',
      'day-of-year': 'DAYOFYEAR',
      'month-of-year': 'MONTH',
      'quarter-of-year': 'QUARTER',
      year: 'YEAR',
      second: 'SECOND',
    };
    if (unit === 'week-of-year') return this.usWeekOfYear(x);
    return `${fn[unit]}(${x})`;
  }

  override now(): string {
    return 'NOW()';
  }

  override datetimeAdd(x: string, n: number, unit: IntervalUnit): string {
    return `DATE_ADD(${x}, INTERVAL ${n} ${unit.toUpperCase()})`;
  }

  /** UNIX_TIMESTAMP() is 0 before 1970. */
  override epochSeconds(x: string): string {
    return `TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', ${x})`;
  }

  override truncNumber(x: string): string {
    return `CAST(TRUNCATE(${x}, 0) AS SIGNED)`;
  }

  /** ROUND of a double breaks ties to even; of a decimal, away from zero (as the other engines do). */
  override round(x: string): string {
    return `ROUND(CAST(${x} AS DECIMAL(38, 10)))`;
  }

  /** CONCAT is NULL when any part is, like `||` elsewhere. */
  override concat(parts: string[]): string {
    return `CONCAT(${parts.join(', ')})`;
  }

  override length(x: string): string {
    return `CHAR_LENGTH(${x})`;
  }

  /** `\` is already LIKE's escape; the default collations ignore case, so a case-sensitive match compares bytes. */
  override like(x: string, pattern: string, caseSensitive: boolean): string {
    return caseSensitive ? `${x} LIKE BINARY ${pattern}` : `LOWER(${x}) LIKE LOWER(${pattern})`;
  }

  /** AVG of integers is a DECIMAL with 4 more digits: too coarse to agree with the other engines. */
  override avg(x: string): string {
    return `AVG(CAST(${x} AS DOUBLE))`;
  }

  /**
   * No PERCENTILE_CONT aggregate: the sorted values come from GROUP_CONCAT and the k-th is picked out, with
   * PERCENTILE_CONT's linear interpolation between neighbours. GROUP_CONCAT cuts its result at
   * `group_concat_max_len` (1 MB on MariaDB, 1 KB on MySQL 8 by default) and in any case at `max_allowed_packet`
   * (16 MB on MariaDB, 64 MB on MySQL 8 by default; global only). The driver raises the first to the second for its
   * sessions (MysqlDriver.connect), so the list holds some 2 million integers on a default MariaDB, and a full list,
   * whose tail would be missing, gives NULL rather than a wrong answer.
   */
  override percentile(x: string, p: number): string {
    const list = `GROUP_CONCAT(${x} ORDER BY ${x} SEPARATOR ',')`;
    const nth = (k: string) => `CAST(SUBSTRING_INDEX(SUBSTRING_INDEX(${list}, ',', ${k}), ',', -1) AS DOUBLE)`;
    const pos = `(1 + ${p} * (COUNT(${x}) - 1))`;
    const lo = `FLOOR(${pos})`;
    return (
      `(CASE WHEN COUNT(${x}) = 0 OR LENGTH(${list}) >= @@group_concat_max_len THEN NULL ` +
      `ELSE ${nth(lo)} + (${nth(`LEAST(${lo} + 1, COUNT(${x}))`)} - ${nth(lo)}) * (${pos} - ${lo}) END)`
    );
  }

  override checkJoin(strategy: JoinStrategy, alias: string): void {
    if (strategy === 'full-join') {
      throw new QueryCompileError(`MySQL/MariaDB has no FULL JOIN (join ${JSON.stringify(alias)}) in "joins".`, 'joins');
    }
  }
  /**
   * The session time zone is UTC (the driver sets it), so DATETIME and TIMESTAMP values are both UTC here.
   * Named zones need the server's time zone tables: without them CONVERT_TZ gives NULL, and the MySQL driver
   * refuses queries holding this conversion with a clear message (MysqlDriver.checkNamedZones).
   */
  override convertTimezone(x: string, zone: string): string | null {
    return `CONVERT_TZ(${x}, '+00:00', ${zone})`;
  }
}
