import type { Engine, SqlParam } from '../types';
import type { FieldMeta, TableMeta } from '../metadata';
import type { Filter, InnerQuery, Ref, TemporalUnit } from '../mbql/types';

/**
 * Metadata preloaded for one compile: every table and field the (preprocessed) query refers to. Compiling is
 * then synchronous and pure: the same query and snapshot always give the same SQL, which the snapshot tests pin.
 */
export interface MetadataSnapshot {
  table(id: number): TableMeta;
  field(id: number): FieldMeta;
  tableFields(tableId: number): FieldMeta[];
}

/** One output column, in SELECT order, annotated as Metabase's result `cols`. */
export interface CompiledColumn {
  name: string;
  display_name: string;
  source: 'fields' | 'breakout' | 'aggregation' | 'native';
  base_type: string;
  effective_type: string;
  semantic_type: string | null;
  field_ref: unknown[];
  id?: number;
  table_id?: number;
  unit?: TemporalUnit;
  binning_info?: { strategy: string; 'bin-width'?: number; 'num-bins'?: number; min_value?: number; max_value?: number };
  /** Extra field metadata copied through (fingerprint, visibility_type, fk_target_field_id, ...). */
  [key: string]: unknown;
}

export interface CompiledQuery {
  sql: string;
  /** Bound values for the `?` placeholders of `sql`, in order. No user value ever appears in `sql` itself. */
  params: SqlParam[];
  columns: CompiledColumn[];
}

export interface CompileOptions {
  /** IANA zone that temporal bucketing and date filters use (report-timezone); null: the database's (UTC for us). */
  timezone: string | null;
  /** `pretty` for POST /api/dataset/native with pretty=true: line breaks before clauses. */
  pretty?: boolean;
  /** The clock for relative date filters (time-interval); default the current time. Tests pin it. */
  now?: Date;
  /**
   * A pivot's subtotals in one query (engines with `groupingSets` only): given the columns of the aggregated query,
   * the breakout combinations (by index) to group by. The query then groups by those GROUPING SETS, adds a last
   * column `pivot-grouping` (bit i set where breakout i is left out) and orders by it first.
   */
  groupingSets?: (columns: CompiledColumn[]) => number[][];
}

/** The compiler of one engine. One generic implementation; dialects override only what differs. */
export interface SqlCompiler {
  readonly engine: Engine;
  /** Whether the engine groups by GROUPING SETS (and so takes CompileOptions.groupingSets). */
  readonly groupingSets?: boolean;
  compile(query: InnerQuery, meta: MetadataSnapshot, opts: CompileOptions): CompiledQuery;
  /**
   * A condition on real (unaliased) table columns, for native field filters: `{{created}}` becomes
   * `"PUBLIC"."ORDERS"."CREATED_AT" >= ? AND ... < ?`. Refs in `filter` are plain field ids.
   */
  compileFilter(filter: Filter, meta: MetadataSnapshot, opts: CompileOptions): { sql: string; params: SqlParam[] };
  quoteIdent(name: string): string;
  /**
   * A native query's date template tag (its bound value `placeholder`), typed the way the engine's columns compare:
   * a date, or a timestamp (`unit` minute: the value has a time). Absent: the value is bound as it is.
   */
  castDateTag?(placeholder: string, unit: 'day' | 'minute'): string;
}

/** Names a ref for messages: `["field", 12, null]` -> `field 12`. */
export function describeRef(ref: Ref): string {
  return `${ref[0]} ${JSON.stringify(ref[1])}`;
}

/**
 * Errors for the user: the query is wrong (400-ish) rather than the server. `clause` names where in the message
 * (`filter`); `at` is the whole path of that place in the query (`query.source-query.filter.and[1]`), set by the
 * level being compiled, from which an MBQL 5 query's error names its own place (execute/failures.ts asSent).
 */
export class QueryCompileError extends Error {
  readonly kind = 'invalid-query';
  at?: string;

  constructor(
    message: string,
    readonly clause?: string,
  ) {
    super(message);
    this.name = 'QueryCompileError';
  }
}
