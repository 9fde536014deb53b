import type { DataSource } from 'typeorm';

/**
 * Plain SQL on the app database, for the few queries on hot paths where building SQL through the ORM costs more
 * than running it. Write `$1, $2, ...`; on SQLite they become `?` and dates and booleans are converted the way the
 * ORM stores them (UTC text, 0/1), since raw queries bypass its conversions.
 */
export class AppSql {
  readonly pg: boolean;

  constructor(private readonly db: DataSource) {
    this.pg = db.options.type === 'postgres';
  }

  query<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.db.query(this.pg ? sql : sql.replace(/\$\d+/g, '?'), params.map((p) => this.value(p)));
  }

  /**
   * Runs an INSERT, UPDATE or DELETE and answers how many rows it changed. The structured result is needed: the
   * plain one is the last insert id for an UPDATE on better-sqlite3.
   */
  async execute(sql: string, params: readonly unknown[] = []): Promise<number> {
    const runner = this.db.createQueryRunner();
    try {
      const result = await runner.query(this.pg ? sql : sql.replace(/\$\d+/g, '?'), params.map((p) => this.value(p)), true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  private value(v: unknown): unknown {
    if (this.pg) return v;
    if (v instanceof Date) return v.toISOString().replace('T', ' ').replace('Z', '');
    if (typeof v === 'boolean') return v ? 1 : 0;
    return v;
  }
}
