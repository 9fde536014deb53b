import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/auth/current-user';
import { ApiError, ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { QueryProcessor, PlannedQuery, RunOptions } from '../../query-engine/execute/query-processor';
import { InvalidQueryError } from '../../query-engine/mbql/validate';
import { carriesSql } from '../../query-engine/preprocess/carries-sql';
import { tablesTouched } from '../../query-engine/preprocess/tables-touched';
import { FailedResults, QueryResults, StreamedResults } from '../../query-engine/postprocess/results';
import { SettingsService } from '../settings';
import { Access, DatabaseAccessService, QuerySlots, WarehouseConnections, warehousePoolSize } from '../warehouse';
import { SharedRuns } from '../../query-engine/execute/shared-runs';
import { AppMetadataProvider } from './app-metadata.provider';
import { MetadataCache } from './metadata-cache';
import { isShared, type Reader, userOf } from '../../common/auth/shared-grant';
import { downloadRowCap, sharingScope, slotOwner, withRowCap } from './query-authorization';
import { QueryMetadataRepository } from './query-metadata.repository';
import { authorizeTables } from './table-authorization';
import { AppLogger } from '../../common/logging/app-logger';
import { QueryContent } from './query-content';
import { checkQueryBody, datasetQueryOf, isNativeQuery, nativeRequestOf } from './query-body';
import { queryHash, QueryLogService, rawQueryHash } from '../query-log';
import { cacheKey, QueryCacheService } from '../query-cache';
import { MetricsService } from '../observability';
import { ImpersonationService, RowSecurityService } from '../row-security';
import { impersonating } from '../../query-engine/execute/drivers/impersonating-driver';

const UNRESTRICTED: Access = { data: 'unrestricted', native: 'write', download: 'full' };

/** Ad-hoc queries show at most this many rows unless their constraints say otherwise (Metabase's default). */
export const AD_HOC_MAX_ROWS = 2000;

export interface DatasetRunOptions {
  context?: string;
  /** Seconds a successful result may be reused (a card's `cache_ttl`, or a database/global default); absent or 0: no cache. */
  cacheTtlSeconds?: number | null;
  /** Run even when a cached result exists (the fresh result then replaces it). */
  ignoreCache?: boolean;
  /** Store only results of runs that took at least this long (Metabase's `query-caching-min-ttl`); default 0. */
  cacheMinDurationMs?: number;
  /** For the execution log. */
  cardId?: number | null;
  /** False for the extra runs of one user query (a pivot's subtotals): the log shows what the user ran, once. */
  log?: boolean;
  dashboardId?: number | null;
  /** Row cap when the query carries no `constraints`; default AD_HOC_MAX_ROWS (exports pass Metabase's 1,048,575). */
  defaultMaxRows?: number;
  /** A pivot's subtotals in the same query (engines with GROUPING SETS); such a run is never cached. */
  groupingSets?: RunOptions['groupingSets'];
}

/** A result as answered: a cache hit says `cached` and when it was stored (`updated_at`). */
export type DatasetAnswer = (QueryResults & { average_execution_time?: number | null; updated_at?: string }) | FailedResults;

/** A result whose rows are still to be read (see StreamedResults), with the previous runs' average time. */
export type DatasetStream = StreamedResults & { head: StreamedResults['head'] & { average_execution_time: number | null } };

/** Runs dataset queries for the HTTP layer: checks data and native permissions, then hands over to the engine. */
/** What a run's log row and metrics are told besides its result. */
type Logged = { hash: string; native: boolean; database_id: number | null; cache_hit?: boolean; engine?: string };

@Injectable()
export class DatasetService {
  /** The cache keys written for each run, by its first row (see cacheOnce); forgotten with the rows. */
  private readonly cachedRuns = new WeakMap<object, Set<string>>();

  constructor(
    private readonly connections: WarehouseConnections,
    private readonly access: DatabaseAccessService,
    private readonly settings: SettingsService,
    private readonly content: QueryContent,
    private readonly queryLog: QueryLogService,
    private readonly cache: QueryCacheService,
    private readonly metadataCache: MetadataCache,
    private readonly metadataRepo: QueryMetadataRepository,
    private readonly slots: QuerySlots,
    private readonly sharedRuns: SharedRuns,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(AppLogger) private readonly logger: AppLogger,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly rowSecurity?: RowSecurityService,
    @Optional() private readonly impersonation?: ImpersonationService,
  ) {}

  /** Runs a query (from the cache when `cacheTtlSeconds` allows) and records the run in the execution log. */
  async run(body: unknown, caller: Reader, signal: AbortSignal, options: string | DatasetRunOptions = 'ad-hoc'): Promise<DatasetAnswer> {
    return (await this.execute(body, caller, signal, options, false)) as DatasetAnswer;
  }

  /**
   * Like run(), but a result that is not cached comes as StreamedResults: its rows are read from the database
   * while they are written out, and the run is logged once they are all read.
   */
  stream(
    body: unknown,
    caller: Reader,
    signal: AbortSignal,
    options: string | DatasetRunOptions = 'ad-hoc',
  ): Promise<DatasetAnswer | DatasetStream> {
    return this.execute(body, caller, signal, options, true);
  }

  private async execute(
    body: unknown,
    caller: Reader,
    signal: AbortSignal,
    options: string | DatasetRunOptions,
    streaming: boolean,
  ): Promise<DatasetAnswer | DatasetStream> {
    const opts: DatasetRunOptions = typeof options === 'string' ? { context: options } : options;
    const context = opts.context ?? 'ad-hoc';
    const { processor, assertMayRun, policyKey } = await this.processor(caller);
    let planned: PlannedQuery | null;
    try {
      planned = await processor.plan(checkQueryBody(body, 'dataset'));
    } catch (e) {
      if (!(e instanceof InvalidQueryError)) throw e;
      const failed = invalid(e, body, context);
      // No database id in the log: the body's may not even exist.
      this.record(failed, { hash: rawQueryHash(body), native: isNativeQuery(body), database_id: null }, caller, opts);
      return failed;
    }
    if (!planned) throw new NotFoundError();
    // A saved question's run (cardId) needs its tables viewable; a query someone is making needs new queries allowed too.
    const access = await assertMayRun(planned, opts.cardId === undefined || opts.cardId === null);
    // Download permissions: a refused download ends here (403); a limited one runs with a lower row cap.
    const downloadCap = downloadRowCap(caller, context, access.download);
    if (downloadCap !== undefined) planned = withRowCap(planned, downloadCap);
    const hash = queryHash(planned.query);
    const average = this.queryLog.averageExecutionTime(hash);
    const logged = { hash, native: planned.query.type === 'native', database_id: planned.database.id, engine: planned.database.engine };
    const ttl = opts.cacheTtlSeconds ?? 0;
    const defaultMaxRows = Math.min(opts.defaultMaxRows ?? AD_HOC_MAX_ROWS, downloadCap ?? Infinity);
    // A shared run is unrestricted, so its result is an admin's: keyed alike.
    const shape = isShared(caller) ? { isSuperuser: true, groupIds: [] } : caller;
    const key =
      ttl > 0 && !opts.groupingSets
        ? cacheKey({
            query: planned.query,
            defaultMaxRows,
            timezone: planned.database.timezone ?? null,
            caller: shape,
            access,
            policy: await policyKey(planned.database.id),
          })
        : null;
    if (key && !opts.ignoreCache) {
      const startedAt = new Date();
      const hit = await this.cache.get<QueryResults>(key);
      this.metrics?.cacheLookup(hit !== null);
      if (hit) {
        const answer = {
          ...hit.result,
          data: withDownloadPerms(hit.result.data, caller, access.download),
          context,
          json_query: planned.query,
          cached: true,
          updated_at: hit.updatedAt.toISOString(),
        };
        this.record(
          { ...answer, started_at: startedAt.toISOString(), running_time: Date.now() - startedAt.getTime() },
          { ...logged, cache_hit: true },
          caller,
          opts,
        );
        return { ...answer, average_execution_time: await average };
      }
    }
    const runOptions = {
      context,
      defaultMaxRows,
      timeoutMs: this.config.queryTimeoutSeconds * 1000,
      signal,
      groupingSets: opts.groupingSets,
    };
    // The processor waits for the caller's query slot, or joins an identical run in flight (see processor()).
    // A result to be cached is needed whole anyway.
    if (streaming && !key) {
      const streamed = await processor.stream(planned, runOptions);
      if (streamed.status !== 'streaming') {
        this.record(streamed, logged, caller, opts);
        return streamed;
      }
      const head = { ...streamed.head, data: withDownloadPerms(streamed.head.data, caller, access.download) };
      return this.loggedWhenRead(streamed, { ...head, average_execution_time: await average }, logged, caller, opts);
    }
    const result = await processor.run(planned, runOptions);
    this.record(result, logged, caller, opts);
    if (result.status !== 'completed') return result;
    if (key && result.running_time >= (opts.cacheMinDurationMs ?? 0)) this.cacheOnce(key, result, ttl);
    return { ...result, data: withDownloadPerms(result.data, caller, access.download), average_execution_time: await average };
  }

  /**
   * Caches a result, once per run: callers that shared one run (SharedRuns) get the same row objects, and the
   * entry they would each write is the same, so only the first writes it (a crowd on one card is one write).
   */
  private cacheOnce(key: string, result: QueryResults, ttl: number): void {
    const first = result.data.rows[0];
    if (first) {
      const keys = this.cachedRuns.get(first) ?? new Set<string>();
      if (keys.has(key)) return;
      this.cachedRuns.set(first, keys.add(key));
    }
    this.cache.putInBackground(key, result, ttl);
  }

  /** The same stream, with the run recorded in the execution log once its rows have been read (or abandoned). */
  private loggedWhenRead(
    streamed: StreamedResults,
    head: DatasetStream['head'],
    logged: Logged,
    caller: Reader,
    opts: DatasetRunOptions,
  ): DatasetStream {
    const record = () => {
      const outcome = streamed.outcome();
      this.record(
        { ...outcome, status: outcome.failure ? 'failed' : 'completed', error: outcome.failure?.error, started_at: head.started_at },
        logged,
        caller,
        opts,
      );
    };
    async function* rows(): AsyncGenerator<unknown[][]> {
      try {
        yield* streamed.rows;
      } finally {
        // Also a client that left half-way: the log shows the rows it got.
        record();
      }
    }
    return { ...streamed, head, rows: rows() };
  }

  /** POST /api/dataset/duration: the average running time (ms) of the query's previous runs, 0 when unknown. */
  async duration(body: unknown, caller: AuthUser): Promise<{ average: number }> {
    // The dataset query itself (Metabase), or `{database, query}` with an inner or a whole query (as /native takes).
    const raw = datasetQueryOf(checkQueryBody(body, 'dataset'));
    const dbId = raw.database;
    if (!Number.isInteger(dbId) || !(await this.metadataRepo.connection(dbId as number))) throw new NotFoundError();
    await this.access.assertCanRead(caller, dbId as number);
    return { average: (await this.queryLog.averageExecutionTime(rawQueryHash(raw))) ?? 0 };
  }

  private record(
    result: Pick<QueryResults | FailedResults, 'status' | 'started_at' | 'running_time' | 'row_count'> & { error?: string },
    { engine, ...logged }: Logged,
    caller: Reader,
    opts: DatasetRunOptions,
  ): void {
    if (!logged.cache_hit) this.metrics?.queryRan(engine, result.status === 'failed' ? 'failed' : 'completed', result.running_time);
    if (opts.log === false) return;
    this.queryLog.record({
      ...logged,
      cache_hit: logged.cache_hit ?? false,
      started_at: new Date(result.started_at),
      running_time: result.running_time,
      result_rows: result.row_count,
      context: opts.context ?? 'ad-hoc',
      executor_id: userOf(caller)?.id ?? null,
      card_id: opts.cardId ?? null,
      dashboard_id: opts.dashboardId ?? null,
      error: result.status === 'failed' ? (result.error ?? 'Unknown error') : null,
    });
  }

  /**
   * The SQL a query becomes, without running it (the body as query-body.ts nativeRequestOf reads it). A query the
   * engine cannot compile (unknown field, bad binning...) is the caller's to fix: the error filter answers its 400.
   */
  async native(body: unknown, caller: AuthUser) {
    const request = nativeRequestOf(body);
    const { processor, assertMayRun } = await this.processor(caller);
    const planned = await processor.plan(request.query).catch((e: unknown) => {
      // The query is this endpoint's `query` parameter: one that does not validate is answered as a bad parameter
      // (the validation shape), naming the value as sent, which only the request knows.
      if (e instanceof InvalidQueryError) throw ValidationError.of('query', e.message, request.sent);
      throw e;
    });
    if (!planned) throw new NotFoundError();
    await assertMayRun(planned, true);
    return processor.toNative(planned, { pretty: request.pretty });
  }

  /**
   * The processor one run uses, and the run's permission check. `assertMayRun`: data access to the database, and
   * native-query permission for SQL someone wrote. The query as sent is checked there; its sources are resolved while
   * it runs, and the processor asks again (authorizeSql) when a native saved question turns out to be a source at
   * any level. Both read the caller's access once per database and run. A shared object's run has no such checks
   * (see SharedGrant).
   */
  private async processor(caller: Reader): Promise<{
    processor: QueryProcessor;
    assertMayRun(planned: PlannedQuery, adHoc: boolean): Promise<Access>;
    /** The caller's row security restrictions on a database as text ('' for none): results are shared only alike. */
    policyKey(dbId: number): Promise<string>;
  }> {
    const timezone = (await this.settings.get<string | null>('report-timezone')) || null;
    const metadata = new AppMetadataProvider(this.metadataRepo, timezone, this.metadataCache);
    const content = this.content.resolverFor(caller);
    const user = userOf(caller);
    const accesses = new Map<number, Promise<Access>>();
    const accessTo = (dbId: number): Promise<Access> => {
      if (!user) return Promise.resolve(UNRESTRICTED);
      let access = accesses.get(dbId);
      if (!access) accesses.set(dbId, (access = this.access.accessTo(user, dbId)));
      return access;
    };
    const assertMayRun = async (planned: PlannedQuery, adHoc: boolean): Promise<Access> => {
      const access = await accessTo(planned.database.id);
      if (access.data !== 'unrestricted') throw new ForbiddenError();
      if (carriesSql(planned.query) && access.native !== 'write') throw new ForbiddenError();
      if (!user) return access;
      // Table-level permissions (table-authorization.ts): looked at only when the database's level does not decide.
      const tableAccess = await this.access.tableAccess(user, planned.database.id);
      if (!tableAccess.needsTables(adHoc)) return access;
      const ids = await tablesOf(processor, planned);
      const tables = (await Promise.all(ids.map((id) => metadata.table(id)))).filter((t) => t !== null);
      return { ...access, download: authorizeTables(tableAccess, tables, adHoc, access.download) };
    };
    const policies = this.rowSecurity?.policiesFor(caller);
    // Connection impersonation: the caller's warehouse role on a database, SQL included (see ImpersonationService).
    const roles = this.impersonation?.impersonationFor(caller, {
      sandboxed: async (dbId) => (policies ? (await policies.restrictions(dbId)).size > 0 : false),
      defaultRole: async (dbId) => connectionUser((await metadata.connection(dbId))?.details),
    });
    const policyKey = async (dbId: number) => (policies ? await policies.key(dbId) : '') + (roles ? await roles.key(dbId) : '');
    const processor = new QueryProcessor({
      metadata,
      content,
      ...(policies ? { policies } : {}),
      database: async (id) => {
        const row = await metadata.connection(id);
        if (!row) return null;
        const role = roles ? await roles.role(id).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))) : null;
        return { meta: { id: row.id, engine: row.engine, timezone }, driver: impersonating(this.connections.driverFor(row), role) };
      },
      authorizeSql: async (db) => {
        if ((await accessTo(db.id)).native !== 'write') throw new ForbiddenError();
      },
      // Each run waits for the caller's turn on its database, unless it joins an identical run in flight of a caller
      // with the same scope (query-authorization.ts sharingScope).
      slot: (db, signal) => this.slots.take(db.id, warehousePoolSize(db.engine), slotOwner(caller), signal),
      sharing: {
        runs: this.sharedRuns,
        scope: async (db) => sharingScope(caller, await accessTo(db.id)) + (await policyKey(db.id)),
        owner: slotOwner(caller),
      },
      // Stage timings are debug lines: at other levels the processor does not time its stages at all.
      ...(this.logger.debugEnabled() ? { log: (msg: string, fields: Record<string, unknown>) => this.logger.debug(msg, fields) } : {}),
    });
    return { processor, assertMayRun, policyKey };
  }
}

/**
 * The tables a query reads. A query whose sources cannot be resolved fails the same way when it runs, so its own
 * tables are enough; unless it names a saved question, whose tables only resolving tells: then it is refused.
 */
async function tablesOf(processor: QueryProcessor, planned: PlannedQuery): Promise<number[]> {
  try {
    return await processor.tablesTouched(planned);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (JSON.stringify(planned.query).includes('card__')) throw new ForbiddenError();
    return planned.query.query ? tablesTouched(planned.query.query) : [];
  }
}

/** The user a database's connection logs in as (its details' `user`), the role an impersonated query must not take. */
function connectionUser(details: Record<string, unknown> | undefined): string | null {
  return typeof details?.user === 'string' ? details.user : null;
}

function invalid(e: InvalidQueryError, body: unknown, context: string): FailedResults {
  const now = new Date().toISOString();
  const db = (body as { database?: unknown }).database;
  return {
    status: 'failed',
    error: e.message,
    error_type: 'invalid-query',
    data: { rows: [], cols: [] },
    row_count: 0,
    context,
    json_query: body,
    database_id: Number.isInteger(db) ? (db as number) : null,
    started_at: now,
    running_time: 0,
  };
}

/**
 * The result's data with what its caller may download of it, as Metabase's answers say (a new object: a shared run's
 * data is every waiter's). Shared objects (public links, embeds) answer to the sharing settings instead: left out.
 */
function withDownloadPerms<T extends object>(data: T, caller: Reader, download: Access['download']): T {
  return isShared(caller) ? data : { ...data, download_perms: download };
}
