/**
 * Set when a DuckDB instance is created and locked: no file access beyond the database itself (read_csv, COPY,
 * ATTACH), no extension installs or loads. Apart from the driver, so that what only needs this does not load DuckDB.
 */
export const DUCKDB_LOCKED_CONFIG: Record<string, string> = {
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  allow_community_extensions: 'false',
  lock_configuration: 'true',
};
