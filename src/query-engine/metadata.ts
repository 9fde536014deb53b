import type { Engine } from './types';
import type { DatasetQuery, InnerQuery } from './mbql/types';

/**
 * What the engine needs to know about the app DB, behind small interfaces so the engine stays framework-free:
 * the Nest edge implements them over TypeORM, tests implement them over fixtures.
 */
export interface FieldMeta {
  id: number;
  tableId: number;
  name: string;
  displayName: string;
  baseType: string;
  effectiveType: string | null;
  semanticType: string | null;
  fkTargetFieldId: number | null;
  visibilityType: string;
  coercionStrategy: string | null;
  fingerprint: unknown;
  position: number;
}

export interface TableMeta {
  id: number;
  dbId: number;
  schema: string | null;
  name: string;
  displayName: string;
}

export interface DatabaseMeta {
  id: number;
  engine: Engine;
  /** Report time zone (the `report-timezone` setting), or null for the database's own. */
  timezone: string | null;
}

/** Metadata look-ups; implementations batch and cache within one query run. */
export interface MetadataProvider {
  database(id: number): Promise<DatabaseMeta | null>;
  table(id: number): Promise<TableMeta | null>;
  field(id: number): Promise<FieldMeta | null>;
  /** Active fields of a table in display order. */
  tableFields(tableId: number): Promise<FieldMeta[]>;
}

/** Saved questions used as sources (`card__<id>`, `{{#12}}`), segments, metrics and snippets, stored by later issues. */
export interface CardSource {
  id: number;
  databaseId: number;
  query: DatasetQuery;
  /** Columns of the card's result, when known (names and types of a native card's columns). */
  resultMetadata?: Array<{ name: string; base_type: string; display_name?: string }>;
}

/** A model whose result is stored as a table in its warehouse, complete and built from the model's current query. */
export interface PersistedSource {
  schema: string;
  table: string;
  /** The table's columns: the model's result columns. */
  columns: Array<{ name: string; base_type: string; display_name?: string }>;
}

export interface ContentResolver {
  /** The card, after checking the caller may read it; null when it does not exist. Throws when forbidden. */
  card(id: number): Promise<CardSource | null>;
  /** The table a persisted model is read from instead of running its query; null (or absent) when none is in use. */
  persisted?(cardId: number): Promise<PersistedSource | null>;
  segment(id: number): Promise<{ id: number; tableId: number; definition: InnerQuery } | null>;
  metric(id: number): Promise<{ id: number; tableId: number; name: string; definition: InnerQuery } | null>;
  /** `databaseId`: the database of the query that includes it. */
  snippet(nameOrId: string | number, databaseId?: number): Promise<{ id: number; name: string; content: string } | null>;
}
