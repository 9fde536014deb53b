import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import type { Dto } from './schema';

export type CreateDatabaseBody = Dto<'CreateDatabaseDto'>;

/** A database as `POST /api/database` answers it: the keys the app reads. */
export interface Database {
  id: number;
  name: string;
  engine: string;
}

export const databaseKeys = {
  all: ['database'] as const,
  list: () => ['database', 'list'] as const,
  detail: (id: number) => ['database', id] as const,
  metadata: (id: number) => ['database', id, 'metadata'] as const,
};

/** `POST /api/database` (admins): connects and saves; a connection the engine refuses is a 400 with its message. */
export function useCreateDatabase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDatabaseBody) => api<SavedDatabase>('POST', '/api/database', { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: databaseKeys.all }),
  });
}

/** `GET /api/database` (Metabase's `{data, total}`): the databases the caller can see. */
export function useDatabases() {
  return useQuery({
    queryKey: databaseKeys.list(),
    queryFn: ({ signal }) => api<{ data: Database[] }>('GET', '/api/database', { signal }).then((r) => r.data),
  });
}

export type UpdateDatabaseBody = Dto<'UpdateDatabaseDto'>;
export type Engine = CreateDatabaseBody['engine'];

/** `GET /api/database/:id` for an admin (src/modules/databases/database.view.ts): the keys the admin console reads. */
export interface DatabaseDetail extends Database {
  engine: Engine;
  description: string | null;
  /** The connection settings, secrets replaced by `**MetabasePass**` (admins only). */
  details?: Record<string, unknown>;
  is_sample: boolean;
  is_full_sync: boolean;
  auto_run_queries: boolean;
  initial_sync_status: 'incomplete' | 'complete' | 'aborted';
  metadata_sync_interval_minutes: number;
  field_values_interval_minutes: number;
  last_metadata_sync_at: string | null;
}

/** `POST /api/database` and `PUT /api/database/:id` answer the database with `warnings` (a role with more than read access). */
export type SavedDatabase = DatabaseDetail & { warnings?: string[] };

/** `POST /api/database/validate` (database-checks.service.ts): a refused connection is an answer, not an error. */
export type ConnectionVerdict = { valid: true } | { valid: false; message: string; errors?: Record<string, string> };

/** `GET /api/database/:id/healthcheck`: the saved connection, tried now. */
export type HealthVerdict = { status: 'ok' } | { status: 'error'; message: string; errors?: Record<string, string> };

export const validateConnection = (engine: Engine, details: Record<string, unknown>) =>
  api<ConnectionVerdict>('POST', '/api/database/validate', { body: { details: { engine, details } } satisfies Dto<'ValidateDatabaseDto'> });

export const healthcheck = (id: number) => api<HealthVerdict>('GET', `/api/database/${id}/healthcheck`);

/** The database; while its first sync runs it is asked again every second, so its status and tables appear by themselves. */
export function useDatabase(id: number) {
  return useQuery({
    queryKey: databaseKeys.detail(id),
    queryFn: ({ signal }) => api<DatabaseDetail>('GET', `/api/database/${id}`, { signal }),
    refetchInterval: (q) => (q.state.data?.initial_sync_status === 'incomplete' ? 1000 : false),
  });
}

/** `GET /api/database/:id/metadata` (src/modules/databases/table.view.ts, field.view.ts): the keys the app reads. */
export interface MetadataField {
  id: number;
  table_id: number;
  name: string;
  display_name: string;
  description: string | null;
  base_type: string;
  semantic_type: string | null;
  fk_target_field_id: number | null;
  visibility_type: 'normal' | 'details-only' | 'sensitive' | 'retired' | 'hidden';
  has_field_values: 'auto-list' | 'list' | 'none' | 'search' | null;
  position: number;
}
export interface MetadataTable {
  id: number;
  db_id: number;
  schema: string | null;
  name: string;
  display_name: string;
  description: string | null;
  visibility_type: 'hidden' | 'technical' | 'cruft' | null;
  fields: MetadataField[];
}
export interface DatabaseMetadata extends DatabaseDetail {
  tables: MetadataTable[];
}

/** Every table and field of the database, hidden and retired ones included (what the admin's data model editor shows). */
export function useDatabaseMetadata(id: number | undefined, opts: { refetchWhileSyncing?: boolean } = {}) {
  return useQuery({
    queryKey: databaseKeys.metadata(id ?? 0),
    queryFn: ({ signal }) => api<DatabaseMetadata>('GET', `/api/database/${id}/metadata`, { query: { include_hidden: true }, signal }),
    enabled: id !== undefined,
    refetchInterval: (q) => (opts.refetchWhileSyncing && q.state.data?.initial_sync_status === 'incomplete' ? 1000 : false),
  });
}

/** `PUT /api/database/:id`: a form's save (its errors shown at its fields). */
export function useUpdateDatabase(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateDatabaseBody) => api<SavedDatabase>('PUT', `/api/database/${id}`, { body }),
    meta: { errors: 'caller' },
    onSuccess: () => client.invalidateQueries({ queryKey: databaseKeys.all }),
  });
}

export function useDeleteDatabase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/api/database/${id}`),
    // The removed database's own queries are dropped, not asked again (they would answer 404 on the page leaving it).
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: databaseKeys.detail(id) });
      return client.invalidateQueries({ queryKey: databaseKeys.all });
    },
  });
}

/** The background jobs an admin starts by hand: a schema sync, a scan of field values, dropping the values kept. */
export type DatabaseJob = 'sync_schema' | 'rescan_values' | 'discard_values';

export function useDatabaseJob(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (job: DatabaseJob) => api<{ status: string }>('POST', `/api/database/${id}/${job}`),
    onSuccess: () => client.invalidateQueries({ queryKey: databaseKeys.detail(id) }),
  });
}

/** `GET /api/database/:id/sync_log` (databases.service.ts syncLog): the recent syncs, newest first. */
export interface SyncRun {
  id: number;
  kind: 'metadata' | 'field-values';
  status: 'running' | 'succeeded' | 'failed';
  started_at: string;
  ended_at: string | null;
  error: string | null;
}

/** The recent syncs; asked again every second while `watch` says a sync is coming or running. */
export function useSyncLog(id: number, watch: (runs: SyncRun[] | undefined) => boolean) {
  return useQuery({
    queryKey: [...databaseKeys.detail(id), 'sync_log'],
    queryFn: ({ signal }) => api<SyncRun[]>('GET', `/api/database/${id}/sync_log`, { signal }),
    refetchInterval: (q) => (watch(q.state.data) ? 1000 : false),
  });
}

/** `GET /api/database/:id/schemas`: the schemas with tables ('' for engines without schemas). */
export function useDatabaseSchemas(id: number) {
  return useQuery({
    queryKey: [...databaseKeys.detail(id), 'schemas'] as const,
    queryFn: ({ signal }) => api<string[]>('GET', `/api/database/${id}/schemas`, { signal }),
  });
}

/** `GET /api/database/:id/schema/:schema` (src/modules/databases/table.view.ts): the keys the browser reads. */
export type SchemaTable = Omit<MetadataTable, 'fields'>;

export function useSchemaTables(id: number, schema: string) {
  return useQuery({
    queryKey: [...databaseKeys.detail(id), 'schema', schema] as const,
    queryFn: ({ signal }) => api<SchemaTable[]>('GET', `/api/database/${id}/schema/${encodeURIComponent(schema)}`, { signal }),
  });
}

/** `GET /api/table/:id/query_metadata`: the table with its fields and database, what a person may query. */
export type TableMetadata = MetadataTable & { db: Database };

export function useTableMetadata(id: number) {
  return useQuery({
    queryKey: ['table', id, 'query_metadata'] as const,
    queryFn: ({ signal }) => api<TableMetadata>('GET', `/api/table/${id}/query_metadata`, { signal }),
  });
}
