/**
 * How infrastructure in `common/` reads a setting without importing the settings module (which would make
 * `common/` depend on a feature module). The settings module provides it.
 */
export interface SettingsReader {
  get<T>(key: string): Promise<T>;
}

export const SETTINGS_READER = Symbol('SETTINGS_READER');
