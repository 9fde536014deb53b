import * as fs from 'node:fs';
import type { DataSource } from 'typeorm';

/** Any constant works; it only has to be the same on every instance. */
const MIGRATION_LOCK_KEY = 72_707_001;
const FILE_LOCK_STALE_MS = 5 * 60_000;
const FILE_LOCK_WAIT_MS = 2 * 60_000;

/**
 * Applies pending migrations. Several instances may boot at once on one app DB: a lock lets exactly one apply
 * them while the others wait, then find nothing left to do. Postgres: a session-level advisory lock. SQLite: an
 * exclusive lock file beside the database (processes share nothing else).
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  const apply = async () => (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  if (dataSource.options.type === 'postgres') return withAdvisoryLock(dataSource, apply);
  return withLockFile(`${String(dataSource.options.database)}.migrate.lock`, apply);
}

async function withAdvisoryLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const lockRunner = dataSource.createQueryRunner();
  await lockRunner.connect();
  try {
    await lockRunner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await work();
  } finally {
    await lockRunner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lockRunner.release();
  }
}

async function withLockFile<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + FILE_LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.closeSync(fs.openSync(lockPath, 'wx'));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock left by a process that died mid-migration must not block every later start forever.
      const age = Date.now() - (fs.statSync(lockPath, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > FILE_LOCK_STALE_MS) fs.rmSync(lockPath, { force: true });
      else if (Date.now() > deadline) throw new Error(`Timed out waiting for the migration lock ${lockPath}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await work();
  } finally {
    fs.rmSync(lockPath, { force: true });
  }
}
