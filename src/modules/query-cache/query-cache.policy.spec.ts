import type { QueryLogService } from '../query-log/query-log.service';
import type { SettingsService } from '../settings/settings.service';
import { cacheTtlSeconds, QueryCachePolicy } from './query-cache.policy';

describe('cacheTtlSeconds', () => {
  it('uses the most specific stored TTL, in hours', () => {
    expect(cacheTtlSeconds(true, { card: 2, dashboard: 5, database: 7 }, 999, 10)).toBe(7200);
    expect(cacheTtlSeconds(true, { card: null, dashboard: 5, database: 7 }, null, 10)).toBe(18000);
    expect(cacheTtlSeconds(true, { database: 1 }, null, 10)).toBe(3600);
  });

  it('falls back to average x ratio, and to nothing', () => {
    expect(cacheTtlSeconds(true, {}, 2500, 10)).toBe(25);
    expect(cacheTtlSeconds(true, {}, 40, 10)).toBeNull();
    expect(cacheTtlSeconds(true, {}, null, 10)).toBeNull();
    expect(cacheTtlSeconds(false, { card: 2 }, 2500, 10)).toBeNull();
  });
});

describe('QueryCachePolicy', () => {
  const values: Record<string, unknown> = { 'enable-query-caching': false, 'query-caching-ttl-ratio': 10, 'query-caching-min-ttl': 60 };
  const settings = { get: jest.fn(async (k: string) => values[k]) } as unknown as SettingsService;
  const log = { averageExecutionTime: jest.fn(async () => 3000) };
  const policy = new QueryCachePolicy(settings, log as unknown as QueryLogService);
  const query = { database: 1, type: 'native', native: { query: 'SELECT 1' } };

  it('is off unless enable-query-caching', async () => {
    expect(await policy.plan({ query, card: 1 })).toEqual({ cacheTtlSeconds: null, cacheMinDurationMs: 0 });
  });

  it('plans the TTL and the minimum duration when on', async () => {
    values['enable-query-caching'] = true;
    expect(await policy.plan({ query, card: 1 })).toEqual({ cacheTtlSeconds: 3600, cacheMinDurationMs: 60_000 });
    expect(log.averageExecutionTime).not.toHaveBeenCalled();
    expect(await policy.plan({ query })).toEqual({ cacheTtlSeconds: 30, cacheMinDurationMs: 60_000 });
  });
});
