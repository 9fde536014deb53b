import { randomUUID } from 'node:crypto';
import { compilerFor } from '../compile';
import type { CompiledColumn, CompileOptions, SqlCompiler } from '../compile/contract';
import type { CardSource, ContentResolver, DatabaseMeta, MetadataProvider } from '../metadata';
import type { DatasetQuery } from '../mbql/types';
import { InvalidQueryError, validateCardQuery } from '../mbql/validate';
import { substituteNative } from '../native';
import { carriesSql } from '../preprocess/carries-sql';
import { PIPELINE, PlanState, PreparedQuery, PreprocessContext, StageName } from '../preprocess';
import { tablesTouched } from '../preprocess/tables-touched';
import {
  FailedResults,
  normalizeTemporalText,
  QueryResults,
  resultsMetadata,
  StreamedResults,
  StreamOutcome,
} from '../postprocess/results';
import type { SqlParam } from '../types';
import type { QueryOptions, RowStream, WarehouseDriver } from './drivers/driver';
import { executeRun, type ExecutePolicy } from './execute-run';
import { asSent, describeFailure, failedStage, markStage } from './failures';

/**
 * The stages that decide which tables a query reads: source cards spliced in (persisted models too, by their own
 * query), segments and metrics expanded, parameters (which may filter through a foreign key) and implicit joins.
 */
const TABLE_STAGES: ReadonlySet<StageName> = new Set([
  'resolve-source-cards',
  'expand-segments-and-metrics',
  'substitute-parameters',
  'resolve-fields',
  'add-implicit-joins',
]);

export const STOPPED_EARLY = 'The rows stopped being read before the end (the client went away).';

/**
 * What the processor needs from its host: the app DB behind three resolvers, the caller's rights, and how the
 * caller's runs are admitted and shared (ExecutePolicy: query slots, shared runs).
 */
export interface ProcessorDeps extends ExecutePolicy {
  metadata: MetadataProvider;
  content: ContentResolver;
  database(id: number): Promise<{ meta: DatabaseMeta; driver: WarehouseDriver } | null>;
  /**
   * Called once preprocessing is done, before anything is compiled, when the query runs SQL someone wrote (a native
   * query, or a native saved question as a source at any level, joins included: see carriesSql). Throws to refuse
   * (the caller lacks native-query permission); absent, such queries run.
   */
  authorizeSql?(db: DatabaseMeta): Promise<void>;
  /** The caller's row security policies (preprocess/apply-row-policies.ts); absent for callers none apply to. */
  policies?: PreprocessContext['policies'];
  /** Debug lines: the time each stage took, and the stage a failure came from, with the query's id. */
  log?(msg: string, fields: Record<string, unknown>): void;
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
  /** Names the query in the processor's log lines. */
  id?: string;
  /** Sent in MBQL 5: where each legacy place came from, for its errors (failures.ts asSent). */
  places?: PlanState['places'];
}

/**
 * The query processor: the stages of PIPELINE (preprocess/index.ts) -> compile (or fill in a native query) ->
 * execute with the row cap, timeout and cancellation (in the caller's turn, or joining an identical run in flight:
 * execute-run.ts) -> annotate. Problems with the query or the warehouse answer the `failed` shape; programming
 * errors propagate. Each stage is timed (deps.log) and an error raised in one records it (failures.ts failedStage).
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

  /** The `plan` stages (normalize, validate), and the database; throws InvalidQueryError / answers null for no database. */
  async plan(raw: unknown): Promise<PlannedQuery | null> {
    const id = randomUUID().slice(0, 8);
    let state: PlanState = { query: raw };
    try {
      for (const stage of PIPELINE) if (stage.phase === 'plan') state = await this.timed(id, stage.name, () => stage.run(state));
    } catch (e) {
      throw asSent(e, state.places);
    }
    const planned = state.query as DatasetQuery;
    const db = await this.database(planned.database);
    if (!db) return null;
    try {
      await this.checkFieldFilters(planned);
    } catch (e) {
      throw asSent(e, state.places);
    }
    return { query: planned, database: db.meta, id, ...(state.places ? { places: state.places } : {}) };
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
        throw new InvalidQueryError(
          `field ${ref[1]} does not exist in database ${query.database}.`,
          `native.template-tags.${name}.dimension`,
        );
      }
    }
  }

  /** Runs the query and reads its whole result: stream(), drained (as fast for small results as reading them at once). */
  async run(planned: PlannedQuery, opts: RunOptions): Promise<QueryResults | FailedResults> {
    const streamed = await this.stream(planned, opts);
    if (streamed.status !== 'streaming') return streamed;
    const rows: unknown[][] = [];
    try {
      for await (const batch of streamed.rows) for (const row of batch) rows.push(row);
    } catch (e) {
      await streamed.close().catch(() => undefined);
      throw e;
    }
    const outcome = streamed.outcome();
    const { head } = streamed;
    if (outcome.failure) {
      return failedResults(
        planned,
        opts,
        { message: outcome.failure.error, type: outcome.failure.error_type },
        head.started_at,
        outcome.running_time,
      );
    }
    const truncated = outcome.rows_truncated;
    return {
      ...head,
      data: { ...head.data, rows, ...(truncated ? { rows_truncated: truncated } : {}) },
      row_count: rows.length,
      running_time: outcome.running_time,
    };
  }

  /**
   * Runs the query and hands over its rows as the database produces them. A failure before the first rows
   * answers the failed shape; one after them ends the rows and shows in outcome().
   */
  async stream(planned: PlannedQuery, opts: RunOptions): Promise<StreamedResults | FailedResults> {
    const clock = new RunClock();
    const id = queryId(planned);
    try {
      const prepared = await this.prepare(planned, opts, id);
      // Waits for a query slot, or joins an identical run in flight (execute-run.ts).
      const stream: RowStream = await this.timed(id, 'execute', () =>
        executeRun(
          { db: prepared.db, driver: prepared.driver, sql: prepared.sql, params: prepared.params, options: prepared.queryOptions },
          this.deps,
          opts.signal,
        ),
      );
      const cols = prepared.columns ?? stream.columns.map((c) => nativeColumn(c.name, c.baseType));
      let outcome: StreamOutcome | null = null;
      let count = 0;
      const log = this.deps.log;
      async function* rows(): AsyncGenerator<unknown[][]> {
        try {
          for await (const batch of stream.batches) {
            count += batch.length;
            yield normalizeTemporalText(batch, cols);
          }
          const truncated = prepared.truncated(count);
          outcome = { row_count: count, running_time: clock.elapsed(), ...(truncated ? { rows_truncated: truncated } : {}) };
          log?.(`Query ${id}: ${count} rows read, ${outcome.running_time} ms in all`, {
            query_id: id,
            stage: 'execute',
            rows: count,
            ms: outcome.running_time,
          });
        } catch (e) {
          markStage(e, 'execute');
          log?.(`Query ${id}: reading the rows failed`, { query_id: id, stage: 'execute', error: errorName(e) });
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
        outcome: () =>
          outcome ?? { row_count: count, running_time: clock.elapsed(), failure: { error: STOPPED_EARLY, error_type: 'cancelled' } },
        close: () => stream.close(),
      };
    } catch (e) {
      return this.failed(planned, opts, clock, asSent(e, planned.places));
    }
  }

  /** The SQL a query becomes (POST /api/dataset/native), without running it. */
  async toNative(planned: PlannedQuery, opts: { pretty: boolean; now?: Date }): Promise<{ query: string; params: SqlParam[] }> {
    const db = (await this.database(planned.database.id))!;
    const id = queryId(planned);
    const ctx = this.context(opts.now, Number.MAX_SAFE_INTEGER, db.meta, id);
    try {
      const prepared = await this.preprocess(planned.query, ctx, id);
      const compiled = await this.timed(id, 'compile', () => this.compile(prepared, db.meta, ctx, id, { pretty: opts.pretty }));
      return { query: compiled.sql, params: compiled.params };
    } catch (e) {
      throw asSent(e, planned.places);
    }
  }

  /**
   * The warehouse tables an MBQL query reads (preprocess/tables-touched.ts), for table-level permissions, before it
   * runs. A persisted model counts by the tables of its query, not by its cache table. Native SQL has none: it needs
   * native permission, which is only ever given on a whole database.
   */
  async tablesTouched(planned: PlannedQuery): Promise<number[]> {
    if (planned.query.type !== 'query' || !planned.query.query) return [];
    const ctx = { ...this.context(undefined, Number.MAX_SAFE_INTEGER), content: { ...this.deps.content, persisted: undefined } };
    let state: PreparedQuery = { query: planned.query };
    for (const stage of PIPELINE) {
      if (stage.phase === 'preprocess' && TABLE_STAGES.has(stage.name)) state = await stage.run(state, ctx);
    }
    return state.query.query ? tablesTouched(state.query.query) : [];
  }

  /** Everything up to the SQL and its bound values: the preprocess stages, then compiling or filling in the native query. */
  private async prepare(planned: PlannedQuery, opts: RunOptions, id: string): Promise<PreparedRun> {
    const db = (await this.database(planned.database.id))!;
    const maxRows = planned.query.constraints?.['max-results'] ?? opts.defaultMaxRows;
    const ownLimit = planned.query.query?.limit;
    const ctx = this.context(opts.now, maxRows, db.meta, id);
    const prepared = await this.preprocess(planned.query, ctx, id);
    const compiled = await this.timed(id, 'compile', () => this.compile(prepared, db.meta, ctx, id, { groupingSets: opts.groupingSets }));
    return {
      db: db.meta,
      driver: db.driver,
      sql: compiled.sql,
      params: compiled.params,
      columns: compiled.columns,
      queryOptions: { readOnly: true, maxRows, timeoutMs: opts.timeoutMs },
      // Truncated: the cap cut the rows, not the query's own smaller limit.
      truncated: (rows) => (rows >= maxRows && (ownLimit === undefined || ownLimit > maxRows) ? maxRows : undefined),
    };
  }

  /** `db` and `id`: the database the query will be compiled for, and the run (native SQL can then be filled in). */
  private context(now: Date | undefined, maxRows: number, db?: DatabaseMeta, id?: string): PreprocessContext {
    const ctx: PreprocessContext = {
      metadata: this.deps.metadata,
      content: this.deps.content,
      now: now ?? new Date(),
      maxRows,
      ...(this.deps.policies ? { policies: this.deps.policies } : {}),
    };
    if (db && id !== undefined) {
      ctx.nativeSql = (native, parameters) =>
        this.native({ type: 'native', database: db.id, native, parameters }, db, compilerFor(db.engine), ctx, id);
    }
    return ctx;
  }

  /** The `preprocess` stages of PIPELINE, in order. */
  private async preprocess(query: DatasetQuery, ctx: PreprocessContext, id: string): Promise<PreparedQuery> {
    let state: PreparedQuery = { query };
    for (const stage of PIPELINE) {
      if (stage.phase === 'preprocess') state = await this.timed(id, stage.name, () => stage.run(state, ctx));
    }
    return state;
  }

  /**
   * The SQL of a preprocessed query: compiled for the database's engine, or a native query with its template tags
   * filled in. SQL someone wrote (anywhere in the query, sources resolved) runs only when authorizeSql lets it.
   */
  private async compile(
    prepared: PreparedQuery,
    db: DatabaseMeta,
    ctx: PreprocessContext,
    id: string,
    extra: Pick<CompileOptions, 'pretty' | 'groupingSets'>,
  ) {
    const { query } = prepared;
    if (this.deps.authorizeSql && carriesSql(query)) await this.deps.authorizeSql(db);
    const compiler = compilerFor(db.engine);
    if (query.type === 'native') return { ...(await this.native(query, db, compiler, ctx, id)), columns: undefined };
    return compiler.compile(query.query!, prepared.metadata!, { timezone: db.timezone, now: ctx.now, ...extra });
  }

  private native(query: DatasetQuery, db: DatabaseMeta, compiler: SqlCompiler, ctx: PreprocessContext, id: string) {
    const content = this.deps.content;
    return substituteNative(query.native!, query.parameters ?? [], {
      meta: this.deps.metadata,
      compiler,
      // Snippets learn the databases they run on: editing one later needs native rights on each.
      content: { ...content, snippet: (nameOrId) => content.snippet(nameOrId, db.id) },
      databaseId: db.id,
      timezone: db.timezone,
      now: ctx.now,
      castDate: compiler.castDateTag?.bind(compiler),
      compileCard: (card) => this.compileCard(card, db, compiler, ctx, id),
    });
  }

  /**
   * An MBQL card inlined by a `{{#card}}` tag: validated as a query sent is (its errors naming the card), then the
   * same preprocess stages (without the row cap, and without parameters: a tag inlines the card as saved), then
   * compiled for the outer query's database.
   */
  private async compileCard(
    card: CardSource,
    db: DatabaseMeta,
    compiler: SqlCompiler,
    ctx: PreprocessContext,
    id: string,
  ): Promise<{ sql: string; params: SqlParam[] }> {
    validateCardQuery(card.id, card.query);
    const prepared = await this.preprocess({ ...card.query, parameters: undefined }, { ...ctx, maxRows: Infinity }, id);
    const compiled = compiler.compile(prepared.query.query!, prepared.metadata!, { timezone: db.timezone, now: ctx.now });
    return { sql: compiled.sql, params: compiled.params };
  }

  /** Runs one step of the pipeline: timed in a debug line (when there is a log), and an error raised in it marked with its name. */
  private async timed<T>(id: string, stage: StageName, step: () => Promise<T> | T): Promise<T> {
    const log = this.deps.log;
    const started = log ? process.hrtime.bigint() : 0n;
    const ms = () => Number(process.hrtime.bigint() - started) / 1e6;
    try {
      const out = await step();
      log?.(`Query ${id}: ${stage} took ${ms().toFixed(1)} ms`, { query_id: id, stage, ms: ms() });
      return out;
    } catch (e) {
      markStage(e, stage);
      log?.(`Query ${id}: ${stage} failed`, { query_id: id, stage: failedStage(e), ms: ms(), error: errorName(e) });
      throw e;
    }
  }

  private head(
    planned: PlannedQuery,
    prepared: PreparedRun,
    cols: CompiledColumn[],
    opts: RunOptions,
    clock: RunClock,
  ): Omit<QueryResults, 'row_count' | 'running_time'> {
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
  private failed(planned: PlannedQuery, opts: RunOptions, clock: RunClock, e: unknown): FailedResults {
    const failure = describeFailure(e, failedStage(e) ?? 'execute');
    if (!failure) throw e;
    return failedResults(planned, opts, failure, clock.startedAt.toISOString(), clock.elapsed());
  }
}

function failedResults(
  planned: PlannedQuery,
  opts: RunOptions,
  failure: { message: string; type: string },
  startedAt: string,
  runningTime: number,
): FailedResults {
  return {
    status: 'failed',
    error: failure.message,
    error_type: failure.type,
    data: { rows: [], cols: [] },
    row_count: 0,
    context: opts.context,
    json_query: planned.query,
    database_id: planned.database.id,
    started_at: startedAt,
    running_time: runningTime,
  };
}

interface PreparedRun {
  db: DatabaseMeta;
  driver: WarehouseDriver;
  sql: string;
  params: SqlParam[];
  /** The compiler's columns; absent for native SQL, whose columns are the database's. */
  columns?: CompiledColumn[];
  /** The caller's signal goes to executeRun, which gives the driver the run's own. */
  queryOptions: Omit<QueryOptions, 'signal'>;
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

/** A plan made elsewhere (tests build PlannedQuery by hand) still gets an id for its log lines. */
function queryId(planned: PlannedQuery): string {
  return planned.id ?? randomUUID().slice(0, 8);
}

/** Only the kind of error: its message may hold the query's values. */
function errorName(e: unknown): string {
  return e instanceof Error ? e.name : typeof e;
}

function nativeColumn(name: string, baseType: string) {
  return {
    name,
    display_name: name,
    source: 'native' as const,
    base_type: baseType,
    effective_type: baseType,
    semantic_type: null,
    field_ref: ['field', name, { 'base-type': baseType }],
  };
}
