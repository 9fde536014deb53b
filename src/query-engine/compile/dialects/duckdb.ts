import { Dialect } from '../dialect';
import type { IntervalUnit } from '../temporal';

export class DuckdbDialect extends Dialect {
  readonly engine = 'duckdb' as const;
  override readonly groupingSets = true;

  override textParam(marker: string): string {
    return `CAST(${marker} AS VARCHAR)`;
  }

  override floatCast(sql: string): string {
    return `CAST(${sql} AS DOUBLE)`;
  }

  override textCast(sql: string): string {
    return `CAST(${sql} AS VARCHAR)`;
  }

  /** `/` divides as floats in DuckDB. */
  override intDiv(a: string, b: string): string {
    return `(${a} // ${b})`;
  }

  override now(): string {
    return 'CAST(get_current_timestamp() AS TIMESTAMP)';
  }

  override datetimeAdd(x: string, n: number, unit: IntervalUnit): string {
    return `(${x} + INTERVAL (${n}) ${unit.toUpperCase()})`;
  }

  override epochSeconds(x: string): string {
    return `epoch(${x})`;
  }

  override percentile(x: string, p: number): string {
    return `quantile_cont(${x}, ${p})`;
  }

  override median(x: string): string {
    return `median(${x})`;
  }
}
