import {
  BLOCKED,
  fromEntry,
  setDatabase,
  setTable,
  tableLevel,
  toUpdate,
  type Access,
} from '../../web/src/app/admin/permissions/grid/levels';

const tables = [
  { id: 1, schema: 'PUBLIC' },
  { id: 2, schema: 'PUBLIC' },
  { id: 3, schema: 'OTHER' },
];
const open: Access = { view: 'unrestricted', create: 'query-builder-and-native', download: 'full' };

/** The data grid's levels (web/src/app/admin/permissions/grid/levels.ts): what the screen sends is the graph's current format. */
describe('data permission levels', () => {
  it("reads the graph's entry, least values left out, and sends every kind spelled out", () => {
    expect(fromEntry(undefined)).toEqual(BLOCKED);
    expect(fromEntry({ download: { schemas: 'none' }, data: 'no', native: 'none' })).toEqual(BLOCKED);
    const a = fromEntry({
      'view-data': { PUBLIC: { 1: 'unrestricted' } },
      download: { schemas: 'limited' },
      data: 'unrestricted',
      native: 'none',
    });
    expect(toUpdate(a)).toEqual({
      'view-data': { PUBLIC: { 1: 'unrestricted' } },
      'create-queries': 'no',
      download: { schemas: 'limited' },
    });
    expect([tableLevel(a, 'view', tables[0]), tableLevel(a, 'view', tables[1]), tableLevel(a, 'view', tables[2])]).toEqual([
      'unrestricted',
      'blocked',
      'blocked',
    ]);
  });

  it('narrows database-wide levels a table cannot have', () => {
    expect(tableLevel({ ...open, view: 'impersonated' }, 'view', tables[0])).toBe('unrestricted');
    expect(tableLevel(open, 'create', tables[0])).toBe('query-builder');
  });

  it('blocks one table: its queries and downloads go, the others keep theirs per schema', () => {
    const a = setTable(open, tables, tables[0], 'view', 'blocked');
    expect(a).toEqual({
      view: { PUBLIC: { 1: 'blocked', 2: 'unrestricted' }, OTHER: 'unrestricted' },
      create: { PUBLIC: { 1: 'no', 2: 'query-builder' }, OTHER: 'query-builder' },
      download: { PUBLIC: { 1: 'none', 2: 'full' }, OTHER: 'full' },
    });
    // Given back: the query builder and full downloads, and one level again when every table shares it.
    expect(setTable(a, tables, tables[0], 'view', 'unrestricted')).toEqual({
      view: 'unrestricted',
      create: 'query-builder',
      download: 'full',
    });
  });

  it('keeps a table under a policy per table, even when every table is', () => {
    let a: Access = { view: 'unrestricted', create: 'query-builder', download: 'full' };
    for (const t of tables) a = setTable(a, tables, t, 'view', 'sandboxed');
    expect(a.view).toEqual({ PUBLIC: 'sandboxed', OTHER: 'sandboxed' });
    expect(a.create).toBe('query-builder');
  });

  it('blocking a database takes all; giving it back starts with the query builder', () => {
    expect(setDatabase(open, 'view', 'blocked')).toEqual(BLOCKED);
    expect(setDatabase(BLOCKED, 'view', 'unrestricted')).toEqual({ view: 'unrestricted', create: 'query-builder', download: 'full' });
    expect(setDatabase(open, 'download', 'limited')).toEqual({ ...open, download: 'limited' });
  });
});
