/** peek's answer when a setting cannot be had without waiting (a read of the app DB is due). */
export const NOT_AT_HAND: unique symbol = Symbol('NOT_AT_HAND');

/**
 * How infrastructure in `common/` reads a setting without importing the settings module (which would make
 * `common/` depend on a feature module). The settings module provides it.
 */
export interface SettingsReader {
  get<T>(key: string): Promise<T>;
  /** get's answer at once when it is at hand: for per-request middleware, where waiting costs more than reading. */
  peek?<T>(key: string): T | typeof NOT_AT_HAND;
}

export const SETTINGS_READER = Symbol('SETTINGS_READER');
