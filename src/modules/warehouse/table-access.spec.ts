import { levelsOf, NO_LEVELS, TableAccess } from './table-access';

describe('table access', () => {
  const grant = (over = {}) => ({
    data: 'unrestricted' as const,
    native: 'none' as const,
    download: 'full' as const,
    create_queries: null,
    ...over,
  });

  it('reads a group without a database row as no access, and one without table rows as database-wide', () => {
    expect(levelsOf(undefined, [])).toBe(NO_LEVELS);
    expect(levelsOf(grant({ data: 'no' }), [])).toBe(NO_LEVELS);
    expect(levelsOf(grant({ native: 'write' }), [])).toEqual({
      viewData: 'unrestricted',
      createQueries: 'query-builder-and-native',
      download: 'full',
    });
    expect(levelsOf(grant({ create_queries: 'no' }), [])).toEqual({ viewData: 'unrestricted', createQueries: 'no', download: 'full' });
  });

  it('takes a kind with table values as per table, a table without one getting the least', () => {
    const levels = levelsOf(grant({ native: 'write' }), [
      { table_id: 1, view_data: 'unrestricted', create_queries: null, download: 'limited' },
    ]);
    const access = new TableAccess([levels]);
    expect(access.uniform).toBe(false);
    expect([access.viewData(1), access.viewData(2)]).toEqual(['unrestricted', 'blocked']);
    // Native SQL is never per table: with a per-table view it is the query builder.
    expect([access.createQueries(1), access.createQueries(2)]).toEqual(['query-builder', 'no']);
    expect([access.download(1), access.download(2)]).toEqual(['limited', 'none']);
    expect(access.native).toBe(false);
  });

  it("gives each table the most generous of the user's groups, ignoring a group that cannot view it", () => {
    const blockedOne = levelsOf(grant(), [
      { table_id: 1, view_data: 'blocked', create_queries: null, download: null },
      { table_id: 2, view_data: 'unrestricted', create_queries: null, download: null },
    ]);
    const limited = levelsOf(grant({ download: 'limited', create_queries: 'no' }), []);
    const access = new TableAccess([blockedOne, limited]);
    expect([access.viewData(1), access.createQueries(1), access.download(1)]).toEqual(['unrestricted', 'no', 'limited']);
    expect([access.viewData(2), access.createQueries(2), access.download(2)]).toEqual(['unrestricted', 'query-builder', 'full']);
    expect(access.downloadOf([1, 2], 'full')).toBe('limited');
  });

  it('needs the tables of a query only when the database level does not decide', () => {
    expect(TableAccess.full().needsTables(true)).toBe(false);
    const savedOnly = new TableAccess([levelsOf(grant({ create_queries: 'no' }), [])]);
    expect([savedOnly.needsTables(false), savedOnly.needsTables(true)]).toEqual([false, true]);
  });
});
