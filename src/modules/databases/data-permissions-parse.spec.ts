import { ValidationError } from '../../common/errors/api-errors';
import { ENTRY_MESSAGE, parseEntry, parseGraphEdit } from './data-permissions-parse';
import { renderLevel } from './data-permissions-graph';
import { expand } from './data-permissions-apply';

const why = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as ValidationError).errors?.groups;
  }
  return undefined;
};

describe('permissions graph: reading an edit', () => {
  it('reads either format and says which', () => {
    expect(parseGraphEdit({ revision: 1, groups: { 3: { 1: { 'view-data': 'unrestricted' } } } }).currentFormat).toBe(true);
    const old = parseGraphEdit({ revision: 1, groups: { 3: { 1: { data: 'no', native: 'write' } } } });
    expect(old.currentFormat).toBe(false);
    expect(old.groups[3][1].legacy).toEqual({ data: 'no', native: 'none' });
  });

  it('reads per-schema and per-table levels, a sandboxed table as unrestricted', () => {
    const e = parseEntry({
      'view-data': { PUBLIC: { 7: 'sandboxed', 8: 'blocked' }, '': 'unrestricted' },
      'create-queries': { PUBLIC: 'query-builder' },
      download: { schemas: { PUBLIC: { 7: 'limited' } } },
    });
    expect(e.viewData).toEqual({ PUBLIC: { 7: 'unrestricted', 8: 'blocked' }, '': 'unrestricted' });
    expect(e.createQueries).toEqual({ PUBLIC: 'query-builder' });
    expect(e.download).toEqual({ PUBLIC: { 7: 'limited' } });
    expect(parseEntry({ 'view-data': 'legacy-no-self-service' })).toMatchObject({ viewData: 'unrestricted', noSelfService: true });
    expect(parseEntry({ 'view-data': 'impersonated' })).toMatchObject({ viewData: 'unrestricted', impersonated: true });
    expect(
      parseGraphEdit({ revision: 1, groups: {}, impersonations: [{ id: 4, group_id: 3, db_id: 1, attribute: 'role' }] }).impersonations,
    ).toEqual([{ group_id: 3, db_id: 1, attribute: 'role' }]);
  });

  it('refuses what it cannot store, naming the part', () => {
    expect(why(() => parseEntry({ data: 'unrestricted' }))).toBe(ENTRY_MESSAGE);
    expect(why(() => parseEntry({ something: 1 }))).toBe(ENTRY_MESSAGE);
    expect(why(() => parseEntry({ 'view-data': { PUBLIC: { x: 'blocked' } } }))).toMatch(/^each database's view-data/);
    expect(why(() => parseEntry({ 'create-queries': { PUBLIC: 'query-builder-and-native' } }))).toMatch(/^each database's create-queries/);
    expect(why(() => parseEntry({ download: 'full' }))).toMatch(/^each database's download/);
    expect(() => parseGraphEdit({ revision: 1, groups: {}, impersonations: [{ group_id: 3 }] })).toThrow(
      /^impersonations: value must be a list/,
    );
    expect(() => parseGraphEdit({ revision: 1, groups: {}, impersonations: [{ group_id: 3, db_id: 1, attribute: ' ' }] })).toThrow(
      /^impersonations: /,
    );
  });
});

describe('permissions graph: per-table levels', () => {
  const tables = [
    { id: 1, db_id: 9, schema: 'A', name: 'ONE' },
    { id: 2, db_id: 9, schema: 'A', name: 'TWO' },
    { id: 3, db_id: 9, schema: null, name: 'THREE' },
  ];

  it('expands a per-schema edit over the tables, one level when all are alike', () => {
    expect(expand({ A: 'unrestricted', '': 'unrestricted' }, tables, 'blocked', 9)).toBe('unrestricted');
    const level = expand({ A: { 1: 'unrestricted' } }, tables, 'blocked', 9);
    expect(level instanceof Map && [...level]).toEqual([[1, 'unrestricted']]);
  });

  it('shows per schema, a schema alike as its level, least values left out', () => {
    const level = new Map([
      [1, 'unrestricted'],
      [2, 'blocked'],
      [3, 'unrestricted'],
    ] as const);
    expect(renderLevel(level, tables, 'blocked')).toEqual({ A: { 1: 'unrestricted' }, '': 'unrestricted' });
    expect(renderLevel('blocked', tables, 'blocked')).toBeUndefined();
    expect(renderLevel(new Map([[1, 'full']] as const), [tables[0]], 'none')).toBe('full');
  });
});
