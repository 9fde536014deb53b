import type { CompiledColumn, CompileOptions, SqlCompiler } from '../compile/contract';
import type { Engine, QueryOptions, QueryResult, SqlParam, WarehouseDriver } from './drivers/driver';
import type { ContentResolver, DatabaseMeta, MetadataProvider } from '../metadata';
import { normalizeDatasetQuery } from '../mbql/normalize';
import type { DatasetQuery, NativeQuery, ParameterValue } from '../mbql/types';
import { InvalidQueryError, validateDatasetQuery } from '../mbql/validate';
import { carriesSql } from '../preprocess/carries-sql';
import { loadMetadata, PreprocessContext, preprocessStages, Stage as PreprocessStage } from '../preprocess';
import { FailedResults, normalizeTemporalText, QueryResults, resultsMetadata, StreamedResults, StreamOutcome } from '../postprocess/results';
import { describeFailure } from './failures';

export const STOPPED_EARLY = 'The rows stopped being read before the end (the client went away).';

export interface ProcessorDeps {
  metadata: MetadataProvider;
  content: ContentResolver;
  database(id: number): Promise<{ meta: DatabaseMeta; driver: WarehouseDriver } | null>;
  compilerFor(engine: Engine): SqlCompiler;
  /** Parameters of an MBQL query become filters (the `substitute-parameters` stage). */
  applyParameters: PreprocessStage;
  /** A native query with its template tags filled in: SQL with `?` placeholders and the bound values. */
  substituteNative(native: NativeQuery, parameters: ParameterValue[], db: DatabaseMeta): Promise<{ sql: string; params: SqlParam[] }>;
  /**
   * Called once preprocessing is done, before anything is compiled, when the query runs SQL someone wrote (a native
   * query, or a native saved question as a source at any level, joins included: see carriesSql). Throws to refuse
   * (the caller lacks native-query permission); absent, such queries run.
   */
  authorizeSql?(db: DatabaseMeta): Promise<void>;
}

export interface RunOptions {
  context: string;
  /** Row cap when the query carries no `constraints` (2,000 for ad-hoc queries, 1,048,575 for exports). */
  defaultMaxRows: number;
  timeoutMs: number;
  signal?: AbortSignal;
  now?: Date;
  /** A pivot's subtotal groupings, computed in the same query (see CompileOptions.groupingSets). */
  groupingSets?: CompileOptions['groupingSets'];
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
    if (!db) return null;
    await this.checkFieldFilters(query);
    return { query, database: db.meta };
  }

  /**
   * A native query's field filters (`dimension` template tags) name fields of the query's own database: another
   * database's field is refused as an invalid query before any of its metadata is used. Unknown ids are left to
   * the substitution, which names them.
   */
  private async checkFieldFilters(query: DatasetQuery): Promise<void> {
    const tags = query.type === 'native' ? query.native?.['template-tags'] : undefined;
    if (!tags || typeof tags !== 'object') return;
    for (const [name, tag] of Object.entries(tags)) {
      const ref = tag && typeof tag === 'object' && tag.type === 'dimension' ? tag.dimension : undefined;
      if (!Array.isArray(ref) || ref[0] !== 'field' || typeof ref[1] !== 'number') continue;
      const field = await this.deps.metadata.field(ref[1]);
      const table = field ? await this.deps.metadata.table(field.tableId) : null;
      if (table && table.dbId !== query.database) {
        throw new InvalidQueryError(`field ${ref[1]} does not exist in database ${query.database}.`, `native.template-tags.${name}.dimension`);
      }
    }
  }

  /** Runs the query and reads its whole result. */
  async run(planned: PlannedQuery, opts: RunOptions): Promise<QueryResults | FailedResults> {
    const clock = new RunClock();
    let stage: StageName = 'execute';
    try {
      const prepared = await this.prepare(planned, opts, (s) => (stage = s));
      stage = 'execute';
      const result: QueryResult = await prepared.driver.query(prepared.sql, prepared.params, prepared.queryOptions);
      const cols = prepared.columns ?? result.columns.map((c) => nativeColumn(c.name, c.baseType));
      const rows = normalizeTemporalText(result.rows, cols);
      const truncated = prepared.truncated(rows.length);
      const head = this.head(planned, prepared, cols, opts, clock);
      return { ...head, data: { ...head.data, rows, ...(truncated ? { rows_truncated: truncated } : {}) }, row_count: rows.length, running_time: clock.elapsed() };
    } catch (e) {
      return this.failed(planned, opts, clock, e, stage);
    }
  }

  /**
   * Runs the query and hands over its rows as the database produces them. A failure before the first rows
   * answers the failed shape; one after them ends the rows and shows in outcome().
   */
  async stream(planned: PlannedQuery, opts: RunOptions): Promise<StreamedResults | FailedResults> {
    const clock = new RunClock();
    let stage: StageName = 'execute';
    try {
      const prepared = await this.prepare(planned, opts, (s) => (stage = s));
      stage = 'execute';
      const stream = await prepared.driver.stream(prepared.sql, prepared.params, prepared.queryOptions);
      const cols = prepared.columns ?? stream.columns.map((c) => nativeColumn(c.name, c.baseType));
      let outcome: StreamOutcome | null = null;
      let count = 0;
      async function* rows(): AsyncGenerator<unknown[][]> {
        try {
          for await (const batch of stream.batches) {
            count += batch.length;
            yield normalizeTemporalText(batch, cols);
          }
          const truncated = prepared.truncated(count);
          outcome = { row_count: count, running_time: clock.elapsed(), ...(truncated ? { rows_truncated: truncated } : {}) };
        } catch (e) {
          const failure = describeFailure(e, 'execute');
          if (!failure) throw e;
          outcome = { row_count: count, running_time: clock.elapsed(), failure: { error: failure.message, error_type: failure.type } };
        }
      }
      return {
        status: 'streaming',
        head: this.head(planned, prepared, cols, opts, clock),
        rows: rows(),
        // Asked before the rows ran out: the reader stopped early (a client that went away).
        outcome: () => outcome ?? { row_count: count, running_time: clock.elapsed(), failure: { error: STOPPED_EARLY, error_type: 'cancelled' } },
        close: () => stream.close(),
      };
    } catch (e) {
      return this.failed(planned, opts, clock, e, stage);
    }
  }

  /** Everything up to the SQL and its bound values: preprocessing, then compiling or filling in the native query. */
  private async prepare(planned: PlannedQuery, opts: RunOptions, enter: (stage: StageName) => void): Promise<PreparedRun> {
    const db = (await this.database(planned.database.id))!;
    const maxRows = planned.query.constraints?.['max-results'] ?? opts.defaultMaxRows;
    const ctx: PreprocessContext = { metadata: this.deps.metadata, content: this.deps.content, now: opts.now ?? new Date(), maxRows };
    let query = planned.query;
    const ownLimit = query.query?.limit;
    for (const [name, fn] of preprocessStages(this.deps.applyParameters)) {
      enter(name);
      query = await fn(query, ctx);
    }
    await this.authorize(query, db.meta);
    enter('compile');
    const compiled = query.type === 'native'
      ? await this.native(query, db.meta)
      : this.deps.compilerFor(db.meta.engine).compile(query.query!, await loadMetadata(query.query!, this.deps.metadata, db.meta.id), { timezone: db.meta.timezone, groupingSets: opts.groupingSets });
    return {
      db: db.meta,
      driver: db.driver,
      sql: compiled.sql,
      params: compiled.params,
      columns: compiled.columns,
      queryOptions: { readOnly: true, maxRows, timeoutMs: opts.timeoutMs, signal: opts.signal },
      // Truncated: the cap cut the rows, not the query's own smaller limit.
      truncated: (rows) => (rows >= maxRows && (ownLimit === undefined || ownLimit > maxRows) ? maxRows : undefined),
    };
  }

  private head(planned: PlannedQuery, prepared: PreparedRun, cols: CompiledColumn[], opts: RunOptions, clock: RunClock): Omit<QueryResults, 'row_count' | 'running_time'> {
    return {
      data: {
        rows: [],
        cols,
        native_form: { query: prepared.sql, params: prepared.params },
        results_timezone: prepared.db.timezone ?? 'UTC',
        results_metadata: resultsMetadata(cols),
        insights: null,
      },
      status: 'completed',
      context: opts.context,
      json_query: planned.query,
      started_at: clock.startedAt.toISOString(),
      database_id: prepared.db.id,
    };
  }

  /** Problems with the query or the warehouse answer the `failed` shape; programming errors propagate. */
  private failed(planned: PlannedQuery, opts: RunOptions, clock: RunClock, e: unknown, stage: StageName): FailedResults {
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
      started_at: clock.startedAt.toISOString(),
      running_time: clock.elapsed(),
    };
  }

  /** The SQL a query becomes (POST /api/dataset/native), without running it. */
  async toNative(planned: PlannedQuery, opts: { pretty: boolean; now?: Date }): Promise<{ query: string; params: SqlParam[] }> {
    const db = (await this.database(planned.database.id))!;
    const ctx: PreprocessContext = { metadata: this.deps.metadata, content: this.deps.content, now: opts.now ?? new Date(), maxRows: Number.MAX_SAFE_INTEGER };
    let query = planned.query;
    for (const [, fn] of preprocessStages(this.deps.applyParameters)) query = await fn(query, ctx);
    await this.authorize(query, db.meta);
    if (query.type === 'native') {
      const n = await this.native(query, db.meta);
      return { query: n.sql, params: n.params };
    }
    const snapshot = await loadMetadata(query.query!, this.deps.metadata, db.meta.id);
    const compiled = this.deps.compilerFor(db.meta.engine).compile(query.query!, snapshot, { timezone: db.meta.timezone, pretty: opts.pretty });
    return { query: compiled.sql, params: compiled.params };
  }

  /** The final query, sources resolved: SQL someone wrote runs only when authorizeSql lets it. */
  private async authorize(query: DatasetQuery, db: DatabaseMeta): Promise<void> {
    if (this.deps.authorizeSql && carriesSql(query)) await this.deps.authorizeSql(db);
  }

  private async native(query: DatasetQuery, db: DatabaseMeta) {
    const { sql, params } = await this.deps.substituteNative(query.native!, query.parameters ?? [], db);
    return { sql, params, columns: undefined };
  }
}

/** Where a run was when it failed, for the error's wording: a preprocess stage, `compile` or `execute`. */
type StageName = string;

interface PreparedRun {
  db: DatabaseMeta;
  driver: WarehouseDriver;
  sql: string;
  params: SqlParam[];
  /** The compiler's columns; absent for native SQL, whose columns are the database's. */
  columns?: CompiledColumn[];
  queryOptions: QueryOptions;
  /** The cap, when `rows` rows mean it cut the result short. */
  truncated(rows: number): number | undefined;
}

class RunClock {
  readonly startedAt = new Date();
  private readonly started = process.hrtime.bigint();

  elapsed(): number {
    return Math.round(Number(process.hrtime.bigint() - this.started) / 1e6);
  }
}

function nativeColumn(name: string, baseType: string) {
  return { name, display_name: name, source: 'native' as const, base_type: baseType, effective_type: baseType, semantic_type: null, field_ref: ['field', name, { 'base-type': baseType }] };
}
