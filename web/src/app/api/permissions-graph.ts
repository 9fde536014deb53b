/** Types only (no imports): the admin grid's pure helpers and their specs read them without the API client. */

/**
 * The data permissions graph in Metabase's current format (src/modules/databases/data-permissions-graph.ts): per group
 * and database `view-data`, `create-queries` and `download`, each database-wide or per schema and table; a least value
 * (`blocked`, `no`) is left out. The earlier keys `data`/`native` are shown beside them; the screen reads and sends
 * only the current ones.
 */
export type ViewData = 'unrestricted' | 'blocked' | 'impersonated' | 'legacy-no-self-service';
/** Per schema or table; `sandboxed` is sent for a table under a row policy and read back as `unrestricted`. */
export type TableViewData = 'unrestricted' | 'blocked' | 'sandboxed';
export type CreateQueries = 'query-builder-and-native' | 'query-builder' | 'no';
export type TableCreateQueries = 'query-builder' | 'no';
export type DownloadAccess = 'full' | 'limited' | 'none';
/** A value database-wide, or `{<schema>: value | {<table id>: value}}` (a schemaless table under ""). */
export type PerSchema<W extends string, T extends string = W> = W | Record<string, T | Record<string, T>>;

export interface GraphEntry {
  'view-data'?: PerSchema<ViewData, TableViewData>;
  'create-queries'?: PerSchema<CreateQueries, TableCreateQueries>;
  download: { schemas: PerSchema<DownloadAccess> };
  'data-model'?: { schemas: 'all' };
  details?: 'yes';
  /** The earlier format's keys, still shown by the server. */
  data: 'unrestricted' | 'no';
  native: 'write' | 'none';
  upload?: 'yes';
}
export interface DataGraph {
  revision: number;
  groups: Record<string, Record<string, GraphEntry>>;
}
/** What the screen sends for one changed group and database: the three kinds, least values spelled out. */
export interface EntryUpdate {
  'view-data': PerSchema<ViewData, TableViewData>;
  'create-queries': PerSchema<CreateQueries, TableCreateQueries>;
  download: { schemas: PerSchema<DownloadAccess> };
}
/** `impersonations` of the graph PUT, and an entry of `GET /api/ee/advanced-permissions/impersonation`. */
export interface ImpersonationPolicy {
  id?: number;
  group_id: number;
  db_id: number;
  attribute: string;
}
export interface GraphUpdate {
  revision: number;
  groups: Record<string, Record<string, EntryUpdate>>;
  impersonations?: ImpersonationPolicy[];
  /** Row and column security policies stored with the graph, in its transaction (Metabase's `sandboxes`). */
  sandboxes?: Array<Omit<RowPolicy, 'id'>>;
}

/**
 * What an attribute fills in (src/modules/row-security/restrictions.ts): a column of the table or of a query builder
 * question, `["dimension", ["field", <field id>, null]]`, or a template tag of a SQL question, `["variable" |
 * "dimension", ["template-tag", <name>]]`.
 */
export type ColumnTarget = ['dimension', ['field', number | string, unknown]] | ['variable' | 'dimension', ['template-tag', string]];
/** A row and column security policy, `/api/mt/gtap` (row-policies.dto.ts RowPolicyView). */
export interface RowPolicy {
  id: number;
  group_id: number;
  table_id: number;
  card_id: number | null;
  attribute_remappings: Record<string, ColumnTarget>;
}
export type RowPolicyBody = Pick<RowPolicy, 'card_id' | 'attribute_remappings'>;
