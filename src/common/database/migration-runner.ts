import type { DataSource } from 'typeorm';

/** Any constant works; it only has to be the same on every instance. */
const MIGRATION_LOCK_KEY = 72_707_001;

/**
 * Applies pending migrations. On Postgres several instances may boot at once: a session-level advisory lock
 * lets exactly one apply them while the others wait, then find nothing left to do.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'postgres') {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  }
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}
