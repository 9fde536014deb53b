import { cacheKey, CacheKeyParts } from './query-cache-key';

describe('cacheKey', () => {
  const base: CacheKeyParts = {
    query: { database: 1, type: 'native', native: { query: 'SELECT 1' } },
    defaultMaxRows: 2000,
    timezone: null,
    caller: { isSuperuser: false, groupIds: [3, 1] },
    access: { data: 'unrestricted', native: 'write' },
  };
  const key = (over: Partial<CacheKeyParts>) => cacheKey({ ...base, ...over });

  it('is stable across key order and group order, and ignores middleware', () => {
    expect(cacheKey(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(
      key({
        caller: { isSuperuser: false, groupIds: [1, 3, 3] },
        query: { native: { query: 'SELECT 1' }, type: 'native', database: 1, middleware: { x: 1 } },
      }),
    ).toBe(cacheKey(base));
  });

  it('changes with the query, parameters, constraints, row cap and time zone', () => {
    const k = cacheKey(base);
    const q = base.query as Record<string, unknown>;
    expect(key({ query: { ...q, parameters: [{ value: 1 }] } })).not.toBe(k);
    expect(key({ query: { ...q, parameters: [{ value: 1 }] } })).not.toBe(key({ query: { ...q, parameters: [{ value: 2 }] } }));
    expect(key({ query: { ...q, constraints: { 'max-results': 5 } } })).not.toBe(k);
    expect(key({ defaultMaxRows: 10 })).not.toBe(k);
    expect(key({ timezone: 'Europe/Berlin' })).not.toBe(k);
  });

  it('never shares an entry between different permission shapes', () => {
    const k = cacheKey(base);
    expect(key({ caller: { isSuperuser: false, groupIds: [1] } })).not.toBe(k);
    expect(key({ caller: { isSuperuser: true, groupIds: [3, 1] } })).not.toBe(k);
    expect(key({ access: { data: 'unrestricted', native: 'none' } })).not.toBe(k);
    // all admins share one shape, whatever their groups
    expect(key({ caller: { isSuperuser: true, groupIds: [1, 2] } })).toBe(key({ caller: { isSuperuser: true, groupIds: [1, 2, 5] } }));
  });
});
