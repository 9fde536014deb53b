import type { Engine } from '../../query-engine/execute/drivers';

/** The `uploads-settings` setting: where uploads go. All null (the default) means uploads are off. */
export interface UploadsSettings {
  db_id: number | null;
  schema_name: string | null;
  table_prefix: string | null;
}

export const UPLOAD_ENGINES: readonly Engine[] = ['postgres', 'mysql', 'duckdb'];

export const DEFAULT_UPLOADS_SETTINGS: UploadsSettings = { db_id: null, schema_name: null, table_prefix: null };

/** The shape of the setting; whether the database exists is checked by UploadsSettingsCheck. */
export function uploadsSettingsShape(value: unknown): string | undefined {
  const v = value as Record<string, unknown> | null;
  const ok =
    v !== null &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    Object.keys(v).every((k) => ['db_id', 'schema_name', 'table_prefix'].includes(k)) &&
    (v.db_id === null || v.db_id === undefined || (Number.isInteger(v.db_id) && (v.db_id as number) > 0)) &&
    (v.schema_name === null ||
      v.schema_name === undefined ||
      (typeof v.schema_name === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v.schema_name))) &&
    (v.table_prefix === null ||
      v.table_prefix === undefined ||
      (typeof v.table_prefix === 'string' && /^[A-Za-z0-9_]{0,20}$/.test(v.table_prefix)));
  return ok
    ? undefined
    : 'value must be a map {db_id: a database id or null, schema_name: a schema name or null,' +
        ' table_prefix: up to 20 letters, digits or underscores, or null}.';
}
