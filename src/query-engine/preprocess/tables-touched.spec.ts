import type { InnerQuery } from '../mbql/types';
import { tablesTouched } from './tables-touched';

describe('tablesTouched', () => {
  it('finds the source table of every level and join, nested ones included, once each', () => {
    const query = {
      'source-query': {
        'source-table': 1,
        joins: [{ alias: 'P', 'source-table': 2, condition: ['=', 1, 1] }],
      },
      joins: [
        { alias: 'Q', 'source-query': { 'source-table': 3, joins: [{ alias: 'R', 'source-table': 1, condition: [] }] }, condition: [] },
        { alias: 'N', native: 'SELECT 1', condition: [] },
      ],
    } as unknown as InnerQuery;
    expect(tablesTouched(query)).toEqual([1, 2, 3]);
  });

  it('ignores sources that are not tables (a card not yet resolved, native SQL)', () => {
    expect(tablesTouched({ 'source-table': 'card__4' } as InnerQuery)).toEqual([]);
    expect(tablesTouched({ native: 'SELECT 1' } as unknown as InnerQuery)).toEqual([]);
  });
});
