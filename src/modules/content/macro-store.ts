/**
 * Where the table, field, card and dataset answers find the legacy segments and metrics of their tables, without
 * depending on the legacy-metrics module (which depends on the dataset and fields modules through the query engine).
 * ContentModule provides it with the legacy-metrics module's DbMacroStore.
 */
export const MACRO_STORE = Symbol('MACRO_STORE');

export type MacroKind = 'segment' | 'metric';

/** A segment or metric as GET /api/segment/:id or /api/metric/:id answers it (creator and query description hydrated). */
export interface TableMacro {
  id: number;
  table_id: number;
  name: string;
  description: string | null;
  archived: boolean;
  /** The MBQL fragment: a segment's `{source-table, filter}`, a metric's `{source-table, aggregation, filter?}`. */
  definition: unknown;
  [key: string]: unknown;
}

export interface MacroStore {
  /**
   * The unarchived segments or metrics of each of `tableIds` (by name), hydrated, in a bounded number of app-DB
   * queries whatever the number of tables; a table without any is absent from the map. The caller has checked that
   * whoever asks may read the tables.
   */
  onTables(kind: MacroKind, tableIds: number[]): Promise<Map<number, TableMacro[]>>;
}
