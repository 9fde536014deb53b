import type { SqlCompiler } from '../compile/contract';
import type { Engine, QueryResult, SqlParam, WarehouseDriver } from './drivers/driver';
import type { ContentResolver, DatabaseMeta, MetadataProvider } from '../metadata';
import { normalizeDatasetQuery } from '../mbql/normalize';
import type { DatasetQuery, NativeQuery, ParameterValue } from '../mbql/types';
import { validateDatasetQuery } from '../mbql/validate';
import { loadMetadata, PreprocessContext, preprocessStages, Stage } from '../preprocess';
import { FailedResults, normalizeTemporalText, QueryResults, resultsMetadata } from '../postprocess/results';
import { describeFailure } from './failures';

export interface ProcessorDeps {
  metadata: MetadataProvider;
  content: ContentResolver;
  database(id: number): Promise<{ meta: DatabaseMeta; driver: WarehouseDriver } | null>;
  compilerFor(engine: Engine): SqlCompiler;
  /** Parameters of an MBQL query become filters (the `substitute-parameters` stage). */
  applyParameters: Stage;
  /** A native query with its template tags filled in: SQL with `?` placeholders and the bound values. */
  substituteNative(native: NativeQuery, parameters: ParameterValue[], db: DatabaseMeta): Promise<{ sql: string; params: SqlParam[] }>;
}

export interface RunOptions {
  context: string;
  /** Row cap when the query carries no `constraints` (2,000 for ad-hoc queries, 1,048,575 for exports). */
  defaultMaxRows: number;
  timeoutMs: number;
  signal?: AbortSignal;
  now?: Date;
}

/** What process() was asked to run, with the database it turned out to be, for the permission check. */
export interface PlannedQuery {
  query: DatasetQuery;
  database: DatabaseMeta;
}

/**
 * The query processor: normalize -> validate -> preprocess stages -> compile (or fill in a native query) ->
 * execute with the row cap, timeout and cancellation -> annotate. Problems with the query or the warehouse
 * answer the `failed` shape; programming errors propagate.
 */
export class QueryProcessor {
  private readonly databases = new Map<number, Promise<{ meta: DatabaseMeta; driver: WarehouseDriver } | null>>();

  constructor(private readonly deps: ProcessorDeps) {}

  /** One look-up per database for the life of this processor (plan and run ask for the same one). */
  private database(id: number) {
    let db = this.databases.get(id);
    if (!db) {
      db = this.deps.database(id);
      this.databases.set(id, db);
    }
    return db;
  }

  /** Normalizes and validates, and finds the database; throws InvalidQueryError / answers null for no database. */
  async plan(raw: unknown): Promise<PlannedQuery | null> {
    const query = normalizeDatasetQuery(raw);
    validateDatasetQuery(query);
    const db = await this.database(query.database);
    return db ? { query, database: db.meta } : null;
  }

  async run(planned: PlannedQuery, opts: RunOptions): Promise<QueryResults | FailedResults> {
    const startedAt = new Date();
    const started = process.hrtime.bigint();
    const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
    let stage = 'execute';
    try {
      const db = (await this.database(planned.database.id))!;
      const maxRows = planned.query.constraints?.['max-results'] ?? opts.defaultMaxRows;
      const ctx: PreprocessContext = { metadata: this.deps.metadata, content: this.deps.content, now: opts.now ?? new Date(), maxRows };
      let query = planned.query;
      const ownLimit = query.query?.limit;
      for (const [name, fn] of preprocessStages(this.deps.applyParameters)) {
        stage = name;
        query = await fn(query, ctx);
      }
      stage = 'compile';
      const compiled = query.type === 'native'
        ? await this.native(query, db.meta)
        : this.deps.compilerFor(db.meta.engine).compile(query.query!, await loadMetadata(query.query!, this.deps.metadata, db.meta.id), { timezone: db.meta.timezone });
      stage = 'execute';
      const result: QueryResult = await db.driver.query(compiled.sql, compiled.params, { readOnly: true, maxRows, timeoutMs: opts.timeoutMs, signal: opts.signal });
      const cols = compiled.columns ?? result.columns.map((c) => nativeColumn(c.name, c.baseType));
      const rows = normalizeTemporalText(result.rows, cols);
      const truncated = rows.length >= maxRows && (ownLimit === undefined || ownLimit > maxRows);
      return {
        data: {
          rows,
          cols,
          native_form: { query: compiled.sql, params: compiled.params },
          results_timezone: db.meta.timezone ?? 'UTC',
          results_metadata: resultsMetadata(cols),
          insights: null,
          ...(truncated ? { rows_truncated: maxRows } : {}),
        },
        row_count: rows.length,
        status: 'completed',
        context: opts.context,
        json_query: planned.query,
        started_at: startedAt.toISOString(),
        running_time: elapsed(),
        database_id: db.meta.id,
      };
    } catch (e) {
      const failure = describeFailure(e, stage);
      if (!failure) throw e;
      return {
        status: 'failed',
        error: failure.message,
        error_type: failure.type,
        data: { rows: [], cols: [] },
        row_count: 0,
        context: opts.context,
        json_query: planned.query,
        database_id: planned.database.id,
        started_at: startedAt.toISOString(),
        running_time: elapsed(),
      };
    }
  }

  /** The SQL a query becomes (POST /api/dataset/native), without running it. */
  async toNative(planned: PlannedQuery, opts: { pretty: boolean; now?: Date }): Promise<{ query: string; params: SqlParam[] }> {
    const db = (await this.database(planned.database.id))!;
    const ctx: PreprocessContext = { metadata: this.deps.metadata, content: this.deps.content, now: opts.now ?? new Date(), maxRows: Number.MAX_SAFE_INTEGER };
    let query = planned.query;
    for (const [, fn] of preprocessStages(this.deps.applyParameters)) query = await fn(query, ctx);
    if (query.type === 'native') {
      const n = await this.native(query, db.meta);
      return { query: n.sql, params: n.params };
    }
    const snapshot = await loadMetadata(query.query!, this.deps.metadata, db.meta.id);
    const compiled = this.deps.compilerFor(db.meta.engine).compile(query.query!, snapshot, { timezone: db.meta.timezone, pretty: opts.pretty });
    return { query: compiled.sql, params: compiled.params };
  }

  private async native(query: DatasetQuery, db: DatabaseMeta) {
    const { sql, params } = await this.deps.substituteNative(query.native!, query.parameters ?? [], db);
    return { sql, params, columns: undefined };
  }
}

function nativeColumn(name: string, baseType: string) {
  return { name, display_name: name, source: 'native' as const, base_type: baseType, effective_type: baseType, semantic_type: null, field_ref: ['field', name, { 'base-type': baseType }] };
}
