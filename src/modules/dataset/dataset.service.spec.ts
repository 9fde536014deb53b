import type { AuthUser } from '../../common/auth/current-user';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { ForbiddenError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import type { AppConfig } from '../../config/app-config';
import type { AppLogger } from '../../common/logging/app-logger';
import { type PlannedQuery, type ProcessorDeps, QueryProcessor } from '../../query-engine/execute/query-processor';
import type { SharedRuns } from '../../query-engine/execute/shared-runs';
import { InvalidQueryError } from '../../query-engine/mbql/validate';
import type { QueryCacheService } from '../query-cache';
import type { QueryLogService } from '../query-log';
import type { SettingsService } from '../settings';
import { type DatabaseAccessService, type QuerySlots, TableAccess, type WarehouseConnections } from '../warehouse';
import { AD_HOC_MAX_ROWS, DatasetService } from './dataset.service';
import type { MetadataCache } from './metadata-cache';
import type { QueryContent } from './query-content';
import type { QueryMetadataRepository } from './query-metadata.repository';
import { LIMITED_DOWNLOAD_ROWS } from './query-authorization';

jest.mock('../../query-engine/execute/query-processor', () => ({ QueryProcessor: jest.fn() }));

/** DatasetService's own decisions (permissions, row caps, cache, execution log), with the query processor mocked. */
describe('DatasetService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [2] } as AuthUser;
  const shared: SharedGrant = { shared: { via: 'public', model: 'card', id: 4 } };
  const mbql = { database: 1, type: 'query' as const, query: { 'source-table': 10 } };
  const native = { database: 1, type: 'native' as const, native: { query: 'select 1' } };

  const completed = (over: Record<string, unknown> = {}) => ({
    status: 'completed',
    data: { rows: [[1]], cols: [] },
    row_count: 1,
    context: 'ad-hoc',
    started_at: '2024-01-01T00:00:00.000Z',
    running_time: 50,
    database_id: 1,
    ...over,
  });

  function setup(opts: { access?: Record<string, string>; query?: unknown; hit?: unknown } = {}) {
    const planned = { query: opts.query ?? mbql, database: { id: 1, engine: 'sqlite', timezone: null } } as PlannedQuery;
    let deps!: ProcessorDeps;
    const processor = {
      plan: jest.fn().mockResolvedValue(planned),
      run: jest.fn().mockResolvedValue(completed()),
      stream: jest.fn(),
      toNative: jest.fn().mockResolvedValue({ query: 'SELECT 1', params: [] }),
    };
    (QueryProcessor as unknown as jest.Mock).mockImplementation((d: ProcessorDeps) => {
      deps = d;
      return processor;
    });
    const access = {
      accessTo: jest.fn().mockResolvedValue(opts.access ?? { data: 'unrestricted', native: 'write', download: 'full' }),
      assertCanRead: jest.fn().mockResolvedValue(undefined),
      tableAccess: jest.fn().mockResolvedValue(TableAccess.full()),
    };
    const queryLog = { record: jest.fn(), averageExecutionTime: jest.fn().mockResolvedValue(42) };
    const cache = { get: jest.fn().mockResolvedValue(opts.hit ?? null), putInBackground: jest.fn() };
    const metadataRepo = { connection: jest.fn().mockResolvedValue({ id: 1, engine: 'sqlite' }) };
    const service = new DatasetService(
      {} as WarehouseConnections,
      access as unknown as DatabaseAccessService,
      { get: jest.fn().mockResolvedValue(null) } as unknown as SettingsService,
      { resolverFor: jest.fn() } as unknown as QueryContent,
      queryLog as unknown as QueryLogService,
      cache as unknown as QueryCacheService,
      {} as MetadataCache,
      metadataRepo as unknown as QueryMetadataRepository,
      {} as QuerySlots,
      {} as SharedRuns,
      { queryTimeoutSeconds: 30 } as AppConfig,
      { debugEnabled: () => false } as unknown as AppLogger,
    );
    return { service, processor, access, queryLog, cache, metadataRepo, deps: () => deps };
  }
  const signal = new AbortController().signal;

  it('refuses a user without unrestricted data access, and SQL without native write access, before running', async () => {
    const blocked = setup({ access: { data: 'no-self-service', native: 'none', download: 'full' } });
    await expect(blocked.service.run(mbql, user, signal)).rejects.toBeInstanceOf(ForbiddenError);
    expect(blocked.processor.run).not.toHaveBeenCalled();

    const noSql = setup({ query: native, access: { data: 'unrestricted', native: 'none', download: 'full' } });
    await expect(noSql.service.run(native, user, signal)).rejects.toBeInstanceOf(ForbiddenError);
    expect(noSql.processor.run).not.toHaveBeenCalled();

    // The same user may still run the query builder on that database.
    const builder = setup({ access: { data: 'unrestricted', native: 'none', download: 'full' } });
    await expect(builder.service.run(mbql, user, signal)).resolves.toMatchObject({ status: 'completed', average_execution_time: 42 });
  });

  it('refuses a native saved question found as a source when the caller may not write SQL; a shared run is never checked', async () => {
    const m = setup({ access: { data: 'unrestricted', native: 'none', download: 'full' } });
    await m.service.run(mbql, user, signal);
    await expect(m.deps().authorizeSql!({ id: 1, engine: 'sqlite' } as never)).rejects.toBeInstanceOf(ForbiddenError);

    const s = setup({ query: native, access: { data: 'no-self-service', native: 'none', download: 'none' } });
    await expect(s.service.run(native, shared, signal, 'csv-download')).resolves.toMatchObject({ status: 'completed' });
    await expect(s.deps().authorizeSql!({ id: 1, engine: 'sqlite' } as never)).resolves.toBeUndefined();
    expect(s.access.accessTo).not.toHaveBeenCalled();
    expect(s.queryLog.record).toHaveBeenCalledWith(expect.objectContaining({ executor_id: null, context: 'csv-download' }));
  });

  it('applies download permissions to downloads only: none is a 403, limited lowers the row cap', async () => {
    const none = setup({ access: { data: 'unrestricted', native: 'write', download: 'none' } });
    await expect(none.service.run(mbql, user, signal, 'xlsx-download')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(none.service.run(mbql, user, signal, 'ad-hoc')).resolves.toMatchObject({ status: 'completed' });

    const limited = setup({ access: { data: 'unrestricted', native: 'write', download: 'limited' } });
    await limited.service.run(mbql, user, signal, { context: 'csv-download', defaultMaxRows: 1_048_575 });
    expect(limited.processor.run.mock.calls[0][1].defaultMaxRows).toBe(LIMITED_DOWNLOAD_ROWS);

    const adHoc = setup();
    await adHoc.service.run(mbql, user, signal);
    expect(adHoc.processor.run.mock.calls[0][1]).toMatchObject({ defaultMaxRows: AD_HOC_MAX_ROWS, timeoutMs: 30_000, context: 'ad-hoc' });
  });

  it('answers an invalid query in the failed shape and logs it without a database', async () => {
    const m = setup();
    const bad = new InvalidQueryError('bad clause', 'query');
    m.processor.plan.mockRejectedValue(bad);
    const answer = await m.service.run({ database: 9, type: 'query', query: {} }, user, signal);
    expect(answer).toMatchObject({ status: 'failed', error: bad.message, error_type: 'invalid-query', database_id: 9, row_count: 0 });
    expect(m.queryLog.record).toHaveBeenCalledWith(
      expect.objectContaining({ database_id: null, error: bad.message, executor_id: 7, cache_hit: false }),
    );

    const gone = setup();
    gone.processor.plan.mockResolvedValue(null);
    await expect(gone.service.run(mbql, user, signal)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers a cache hit without running, and caches a run only when it took at least the minimum duration', async () => {
    const hit = setup({ hit: { result: completed(), updatedAt: new Date('2024-02-01T00:00:00Z') } });
    const answer = await hit.service.run(mbql, user, signal, { cacheTtlSeconds: 60 });
    expect(hit.processor.run).not.toHaveBeenCalled();
    expect(answer).toMatchObject({ cached: true, updated_at: '2024-02-01T00:00:00.000Z', json_query: mbql });
    expect(hit.queryLog.record).toHaveBeenCalledWith(expect.objectContaining({ cache_hit: true }));

    const fast = setup();
    await fast.service.run(mbql, user, signal, { cacheTtlSeconds: 60, cacheMinDurationMs: 100 });
    expect(fast.cache.putInBackground).not.toHaveBeenCalled();

    const slow = setup();
    slow.processor.run.mockResolvedValue(completed({ running_time: 150 }));
    await slow.service.run(mbql, user, signal, { cacheTtlSeconds: 60, cacheMinDurationMs: 100 });
    expect(slow.cache.putInBackground).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ running_time: 150 }), 60);

    const noTtl = setup({ hit: { result: completed(), updatedAt: new Date() } });
    await noTtl.service.run(mbql, user, signal);
    expect(noTtl.cache.get).not.toHaveBeenCalled();
    expect(noTtl.processor.run).toHaveBeenCalled();
  });

  it('writes a result shared by several callers to the cache once', async () => {
    const m = setup();
    const result = completed({ running_time: 10 });
    m.processor.run.mockResolvedValue(result);
    await m.service.run(mbql, user, signal, { cacheTtlSeconds: 60 });
    await m.service.run(mbql, user, signal, { cacheTtlSeconds: 60 });
    expect(m.cache.putInBackground).toHaveBeenCalledTimes(1);
  });

  it('does not log the extra runs of one user query', async () => {
    const m = setup();
    await m.service.run(mbql, user, signal, { log: false });
    expect(m.queryLog.record).not.toHaveBeenCalled();
  });

  it('native(): an invalid query is a validation error on `query`; duration(): an unknown database is a 404', async () => {
    const m = setup();
    const bad = new InvalidQueryError('no source', 'query');
    m.processor.plan.mockRejectedValue(bad);
    const error = await m.service.native({ database: 1, query: { 'source-table': 'x' } }, user).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual({ query: bad.message });
    expect((error as ValidationError).specificErrors.query[0]).toContain('received: {"source-table":"x"}');

    const d = setup();
    d.metadataRepo.connection.mockResolvedValue(null);
    await expect(d.service.duration(mbql, user)).rejects.toBeInstanceOf(NotFoundError);
    await expect(d.service.duration({ ...mbql, database: null }, user)).rejects.toBeInstanceOf(NotFoundError);
    expect(d.access.assertCanRead).not.toHaveBeenCalled();
  });
});
