import { idsOf, sqlBool, sqlNum, typedRow, typedRows } from './row-values';

describe('row values', () => {
  it('reads booleans as either app DB gives them', () => {
    expect([true, 1, '1', 't', 'true'].map(sqlBool)).toEqual([true, true, true, true, true]);
    expect([false, 0, '0', 'f', 'false', null, undefined].map(sqlBool)).toEqual([false, false, false, false, false, false, false]);
  });

  it('reads numeric text as numbers and keeps null', () => {
    expect([5, '42', '3.5', null, undefined].map(sqlNum)).toEqual([5, 42, 3.5, null, null]);
  });

  it('types the columns a shape names, leaves the others and null booleans alone', () => {
    const row = typedRow<{ id: number; n: number | null; archived: boolean; pinned: boolean | null; name: string; at: string }>(
      { id: '7', n: null, archived: 1, pinned: null, name: '12', at: '2026-01-01' },
      { numbers: ['id', 'n', 'absent'], booleans: ['archived', 'pinned'] },
    );
    expect(row).toEqual({ id: 7, n: null, archived: true, pinned: null, name: '12', at: '2026-01-01' });
    expect('absent' in row).toBe(false);
  });

  it('types every row of a listing', () => {
    expect(typedRows([{ a: 't' }, { a: 0 }], { booleans: ['a'] })).toEqual([{ a: true }, { a: false }]);
  });

  it('reads the ids of a list of rows as numbers', () => {
    expect(idsOf([{ id: '12' }, { id: 3, name: 'x' }])).toEqual([12, 3]);
  });
});
