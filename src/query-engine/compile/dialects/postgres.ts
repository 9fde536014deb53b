import { Dialect } from '../dialect';

/** Postgres speaks the defaults; only rounding differs (ROUND of a double breaks ties to even). */
export class PostgresDialect extends Dialect {
  readonly engine = 'postgres' as const;
  override readonly groupingSets = true;

  override round(x: string): string {
    return `ROUND(CAST(${x} AS NUMERIC))`;
  }
}
