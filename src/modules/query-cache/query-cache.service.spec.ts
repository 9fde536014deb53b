import type { AppLogger } from '../../common/logging/app-logger';
import type { QueryCacheEntry } from '../../schema/query-cache.entity';
import type { QueryCacheRepository } from './query-cache.repository';
import { until } from '../../../test/support/until';
import { MAX_CACHED_RESULT_BYTES, QueryCacheService } from './query-cache.service';

/** An in-memory repository with the real one's expiry rule. */
function memoryRepo() {
  const rows = new Map<string, QueryCacheEntry>();
  return {
    rows,
    upsert: jest.fn(async (e: QueryCacheEntry) => void rows.set(e.query_hash, { ...e })),
    findUnexpired: jest.fn(async (key: string, now: Date) => {
      const row = rows.get(key);
      return row && row.expires_at > now ? row : null;
    }),
    deleteExpired: jest.fn(async () => 0),
  };
}

describe('QueryCacheService', () => {
  let repo: ReturnType<typeof memoryRepo>;
  let logger: { warning: jest.Mock; info: jest.Mock };
  let cache: QueryCacheService;
  const now = new Date('2026-05-01T00:00:00Z');
  const later = (s: number) => new Date(now.getTime() + s * 1000);

  beforeEach(() => {
    repo = memoryRepo();
    logger = { warning: jest.fn(), info: jest.fn() };
    cache = new QueryCacheService(repo as unknown as QueryCacheRepository, logger as unknown as AppLogger);
  });

  it('stores gzipped JSON and reads it back until it expires', async () => {
    const result = { data: { rows: [[1, 'a']] }, row_count: 1 };
    expect(await cache.put('k', result, 60, now)).toBe(true);
    const row = repo.rows.get('k')!;
    expect(row.results).not.toContain('rows');
    expect(Buffer.from(row.results, 'base64').subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(row).toMatchObject({ size_bytes: JSON.stringify(result).length, updated_at: now, expires_at: later(60) });
    expect(await cache.get('k', later(59))).toEqual({ result, updatedAt: now });
    expect(await cache.get('k', later(60))).toBeNull();
    expect(await cache.get('other', now)).toBeNull();
  });

  it('skips results that are too large, and TTLs that are not positive', async () => {
    const big = { rows: ['x'.repeat(MAX_CACHED_RESULT_BYTES)] };
    expect(await cache.put('big', big, 60, now)).toBe(false);
    expect(await cache.put('zero', { a: 1 }, 0, now)).toBe(false);
    expect(repo.upsert).not.toHaveBeenCalled();
  });

  it('treats an unreadable entry or a failing read as a miss', async () => {
    repo.rows.set('bad', { query_hash: 'bad', results: 'not gzip', size_bytes: 1, updated_at: now, expires_at: later(60) });
    expect(await cache.get('bad', now)).toBeNull();
    repo.findUnexpired.mockRejectedValueOnce(new Error('down'));
    expect(await cache.get('k', now)).toBeNull();
    expect(logger.warning).toHaveBeenCalledTimes(2);
  });

  it('writes in the background, swallowing failures, and prunes at most hourly', async () => {
    repo.upsert.mockRejectedValueOnce(new Error('down'));
    cache.putInBackground('k', { a: 1 }, 60);
    cache.putInBackground('k', { a: 2 }, 60);
    await cache.flush();
    expect(logger.warning).toHaveBeenCalledWith('Query cache: storing a result failed', { error: 'down' });
    expect((await cache.get('k'))?.result).toEqual({ a: 2 });
    expect(repo.deleteExpired).toHaveBeenCalledTimes(1);
  });

  it('lets the later of two background writes of one key win, even when the earlier one is slower', async () => {
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const store = repo.upsert.getMockImplementation()!;
    // The write with the 60 s TTL (the first accepted) is held until the second has had every chance to land.
    repo.upsert.mockImplementation(async (e: QueryCacheEntry) => {
      if (e.expires_at.getTime() - e.updated_at.getTime() === 60_000) await firstHeld;
      await store(e);
    });
    cache.putInBackground('k', { a: 1 }, 60);
    cache.putInBackground('k', { a: 2 }, 120);
    const flushed = cache.flush();
    await until(() => repo.upsert.mock.calls.length >= 1);
    expect(repo.upsert).toHaveBeenCalledTimes(1);
    releaseFirst();
    await flushed;
    expect(repo.upsert).toHaveBeenCalledTimes(2);
    expect((await cache.get('k'))?.result).toEqual({ a: 2 });
  });
});
