import type { Engine } from '../../api/database';

/**
 * The connection settings each engine takes, as the server accepts them (src/query-engine/execute/drivers/details.ts
 * `validateDetails`: any other key is refused). The server checks them and names a wrong one in `errors.<name>`,
 * which the form shows at the field of that name.
 */
export interface EngineField {
  /** The key in `details`, and the form field's name. */
  name: DetailKey;
  label: string;
  kind: 'text' | 'port' | 'password' | 'switch' | 'certificate';
  required?: boolean;
  description?: string;
  /** Only in the admin console's full form, and only when `ssl` is on. */
  whenSsl?: boolean;
  /** Only in the admin console's full form (first-run setup keeps to the basics). */
  advanced?: boolean;
}

export type DetailKey = 'host' | 'port' | 'dbname' | 'user' | 'password' | 'ssl' | 'ssl-root-cert' | 'db';

const SERVER_FIELDS: EngineField[] = [
  { name: 'host', label: 'Host', kind: 'text', required: true },
  { name: 'port', label: 'Port', kind: 'port' },
  { name: 'dbname', label: 'Database name', kind: 'text', required: true },
  { name: 'user', label: 'Username', kind: 'text', required: true },
  { name: 'password', label: 'Password', kind: 'password' },
  { name: 'ssl', label: 'Use a secure connection (SSL)', kind: 'switch', advanced: true },
  {
    name: 'ssl-root-cert',
    label: 'Certificate authority (PEM)',
    kind: 'certificate',
    advanced: true,
    whenSsl: true,
    description: "The CA certificate(s) that signed the server's certificate, if not a public CA.",
  },
];

const FILE_FIELDS: EngineField[] = [
  { name: 'db', label: 'File', kind: 'text', required: true, description: "The database file, inside the server's data directory." },
];

export interface EngineSpec {
  label: string;
  defaultPort?: number;
  fields: EngineField[];
}

export const ENGINES: Record<Engine, EngineSpec> = {
  postgres: { label: 'PostgreSQL', defaultPort: 5432, fields: SERVER_FIELDS },
  mysql: { label: 'MySQL or MariaDB', defaultPort: 3306, fields: SERVER_FIELDS },
  sqlite: { label: 'SQLite', fields: FILE_FIELDS },
  duckdb: { label: 'DuckDB', fields: FILE_FIELDS },
};

export const ENGINE_OPTIONS = (Object.keys(ENGINES) as Engine[]).map((value) => ({ value, label: ENGINES[value].label }));

/** What a masked secret looks like on the wire: sent back unchanged, it keeps the stored password. */
export const SECRET_MASK = '**MetabasePass**';

/** Minutes between schema syncs the server accepts (5 to 10,080) and between field-value scans (60 to 43,200). */
export const SYNC_EVERY = [
  { value: '5', label: 'Every 5 minutes' },
  { value: '15', label: 'Every 15 minutes' },
  { value: '60', label: 'Hourly' },
  { value: '360', label: 'Every 6 hours' },
  { value: '1440', label: 'Daily' },
  { value: '10080', label: 'Weekly' },
];
export const SCAN_EVERY = [
  { value: '60', label: 'Hourly' },
  { value: '360', label: 'Every 6 hours' },
  { value: '1440', label: 'Daily' },
  { value: '10080', label: 'Weekly' },
  { value: '43200', label: 'Every 30 days' },
];

/** The options, with the stored value added when it is none of them (set through the API). */
export function withValue(options: Array<{ value: string; label: string }>, minutes: number) {
  return options.some((o) => o.value === String(minutes))
    ? options
    : [...options, { value: String(minutes), label: `Every ${minutes} minutes` }].sort((a, b) => Number(a.value) - Number(b.value));
}
