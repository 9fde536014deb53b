import { GrantTable } from './grant-table';

describe('GrantTable', () => {
  it('finds each collection’s best grant, whatever order and however many groups gave one', () => {
    const table = GrantTable.of([
      { collectionId: 40, perm: 'read' },
      { collectionId: 3, perm: 'write' },
      { collectionId: 40, perm: 'write' },
      { collectionId: 17, perm: 'read' },
      { collectionId: 17, perm: 'read' },
      { collectionId: 2_000_000_000, perm: 'read' },
    ]);
    expect(table.size).toBe(4);
    expect([3, 17, 40, 2_000_000_000].map((id) => table.perm(id))).toEqual(['write', 'read', 'write', 'read']);
    expect([0, 1, 4, 39, 41, 2_000_000_001].map((id) => table.perm(id))).toEqual(Array(6).fill(undefined));
  });

  it('keeps ids past 32 bits apart from the small ids they would wrap onto', () => {
    const table = GrantTable.of([{ collectionId: 2 ** 32 + 5, perm: 'write' }]);
    expect(table.perm(2 ** 32 + 5)).toBe('write');
    expect(table.perm(5)).toBeUndefined();
  });

  it('answers nothing from an empty table', () => {
    expect(GrantTable.of([]).perm(1)).toBeUndefined();
  });
});
