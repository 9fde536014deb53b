import { ValidationError } from '../../common/errors/api-errors';

/** The database-local settings a database's `settings` map may hold, each with the check of its value. */
const DATABASE_SETTINGS: Record<string, { check: (v: unknown) => boolean; message: string }> = {
  // Metabase's switch for writing actions (issue 18) on this database.
  'database-enable-actions': { check: (v) => typeof v === 'boolean', message: 'value must be a boolean.' },
};

/**
 * The stored settings with the given ones applied: a null value removes its setting (back to the default), an
 * unknown name or a bad value is refused before anything is saved.
 */
export function mergedDatabaseSettings(stored: Record<string, unknown> | null, given: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...(stored ?? {}) };
  for (const [name, value] of Object.entries(given)) {
    const setting = DATABASE_SETTINGS[name];
    if (!setting) throw ValidationError.of('settings', `${name} is not a database setting.`, given);
    if (value === null) {
      delete merged[name];
      continue;
    }
    if (!setting.check(value)) throw ValidationError.of('settings', `${name}: ${setting.message}`, given);
    merged[name] = value;
  }
  return merged;
}
