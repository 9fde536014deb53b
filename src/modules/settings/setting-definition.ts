/** Who may read a setting: everyone, any signed-in user, admins, or nobody through the API. */
export type SettingVisibility = 'public' | 'authenticated' | 'admin' | 'internal';
export type SettingType = 'string' | 'boolean' | 'integer' | 'json' | 'enum';

export interface SettingDefinition<T = unknown> {
  key: string;
  type: SettingType;
  description: string;
  visibility: SettingVisibility;
  default?: T;
  /** Masked when read back; encrypted at rest when ENCRYPTION_KEY is set. */
  sensitive?: boolean;
  /** For `enum` settings. */
  options?: readonly string[];
  /** Extra rule after the type check: returns what is allowed, or undefined when the value is fine. */
  validate?: (value: T) => string | undefined;
  /** Extra rule that reads other settings (the values in force, or those written in the same call). */
  validateWith?: (value: T, read: (key: string) => Promise<unknown>) => Promise<string | undefined>;
  /** Environment variable that fixes the value (defaults to `MB_` + KEY). */
  envVar?: string;
  /** Value computed on read (from other settings in force, through `read`), never stored. */
  getter?: (read: (key: string) => Promise<unknown>) => T | Promise<T>;
}
