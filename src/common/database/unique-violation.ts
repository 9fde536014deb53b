import { QueryFailedError } from 'typeorm';

/** True when a write lost a race against a unique constraint (Postgres 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(e: unknown): boolean {
  if (!(e instanceof QueryFailedError)) return false;
  const err = e.driverError as { code?: string } | undefined;
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Runs a write whose uniqueness was checked just before; if a concurrent request took the value in between,
 * answers the same error the check would have.
 */
export async function uniqueOr<T>(write: () => Promise<T>, onConflict: () => Error): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isUniqueViolation(e)) throw onConflict();
    throw e;
  }
}
