import { Dialect, type ExtractionUnit, type ParamType } from '../dialect';
import type { IntervalUnit, TruncationUnit } from '../temporal';

/**
 * SQLite keeps timestamps as text ('YYYY-MM-DD HH:MM:SS', as the Sample Database stores them); date functions
 * return the same text, so comparisons stay textual. Computed timestamps in the outermost SELECT are rewritten
 * to ISO ('YYYY-MM-DDTHH:MM:SS') so they read as on the other engines.
 */
export class SqliteDialect extends Dialect {
  readonly engine = 'sqlite' as const;

  override castParam(marker: string, type: ParamType): string {
    if (type === 'timestamp') return `datetime(${marker})`;
    if (type === 'date') return `date(${marker})`;
    return marker;
  }

  /** As castParam, spelled as native queries have always received it. */
  override castDateTag(marker: string, unit: 'day' | 'minute'): string {
    return unit === 'day' ? `DATE(${marker})` : `DATETIME(${marker})`;
  }

  override textParam(marker: string): string {
    return marker;
  }

  override floatCast(sql: string): string {
    return `CAST(${sql} AS REAL)`;
  }

  override truncate(x: string, unit: TruncationUnit, isDate: boolean): string {
    const fn = isDate ? 'date' : 'datetime';
    switch (unit) {
      case 'minute':
        return `strftime('%Y-%m-%d %H:%M:00', ${x})`;
      case 'hour':
        return `strftime('%Y-%m-%d %H:00:00', ${x})`;
      case 'day':
        return `${fn}(${x}, 'start of day')`;
      case 'week':
        return `${fn}(${x}, 'start of day', '-6 days', 'weekday 0')`;
      case 'month':
        return `${fn}(${x}, 'start of month')`;
      case 'quarter':
        return `${fn}(${x}, 'start of month', '-' || ((CAST(strftime('%m', ${x}) AS INTEGER) - 1) % 3) || ' months')`;
      case 'year':
        return `${fn}(${x}, 'start of year')`;
    }
  }

  override extract(x: string, unit: ExtractionUnit): string {
    const fmt: Partial<Record<ExtractionUnit, string>> = {
      'minute-of-hour': '%M',
      'hour-of-day': '%H',
      'day-of-month': '%d',
      'day-of-year': '%j',
      'month-of-year': '%m',
      year: '%Y',
      second: '%S',
    };
    if (unit === 'day-of-week') return `(CAST(strftime('%w', ${x}) AS INTEGER) + 1)`;
    if (unit === 'quarter-of-year') return `((CAST(strftime('%m', ${x}) AS INTEGER) + 2) / 3)`;
    if (unit === 'week-of-year') return this.usWeekOfYear(x);
    return `CAST(strftime('${fmt[unit]}', ${x}) AS INTEGER)`;
  }

  override now(): string {
    return `datetime('now')`;
  }

  /** n is a validated integer; the modifier is text SQLite parses ('+3 days'). */
  override datetimeAdd(x: string, n: number, unit: IntervalUnit): string {
    return `datetime(${x}, '${n >= 0 ? '+' : ''}${n} ${unit}s')`;
  }

  override epochSeconds(x: string): string {
    return `unixepoch(${x})`;
  }

  override truncNumber(x: string): string {
    return `CAST(${x} AS INTEGER)`;
  }

  /** LIKE ignores ASCII case in SQLite: a case-sensitive match is a GLOB with its wildcards escaped. */
  override likePattern(value: string, kind: 'starts' | 'ends' | 'contains', caseSensitive: boolean): string {
    if (!caseSensitive) return super.likePattern(value, kind, caseSensitive);
    const escaped = value.replace(/[*?[]/g, (c) => `[${c}]`);
    return kind === 'starts' ? `${escaped}*` : kind === 'ends' ? `*${escaped}` : `*${escaped}*`;
  }

  override like(x: string, pattern: string, caseSensitive: boolean): string {
    return caseSensitive ? `${x} GLOB ${pattern}` : super.like(x, pattern, false);
  }

  /** No STDDEV_POP/VAR_POP: from the moments (clamped at 0 against rounding). */
  override variance(x: string): string {
    const v = `CAST(${x} AS REAL)`;
    return `MAX(AVG(${v} * ${v}) - AVG(${v}) * AVG(${v}), 0)`;
  }

  override stddev(x: string): string {
    return `SQRT(${this.variance(x)})`;
  }

  override percentile(x: string, p: number): string {
    return `percentile_cont(${x}, ${p})`;
  }

  override median(x: string): string {
    return `median(${x})`;
  }

  override outputColumn(sql: string, baseType: string, direct: boolean): string {
    if (direct) return sql;
    if (baseType === 'type/DateTime') return `strftime('%Y-%m-%dT%H:%M:%S', ${sql})`;
    if (baseType === 'type/Date') return `date(${sql})`;
    return sql;
  }
  /**
   * SQLite knows no named time zones: `report_tz(x, zone)` is a deterministic function the SQLite worker registers
   * (sqlite-executor.ts), giving the wall-clock time in the zone as SQLite's text. SQLite has no zone-aware type.
   */
  override convertTimezone(x: string, zone: string): string | null {
    return `report_tz(${x}, ${zone})`;
  }
}
