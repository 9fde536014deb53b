import { contextForms, rankBySimilarity, similarity } from './similarity';

describe('segment and metric similarity', () => {
  it('collects field, segment and metric references, not values', () => {
    expect([...contextForms({ filter: ['and', ['>', ['field', 1, null], 5], ['segment', 2]], aggregation: [['metric', 3]] })]).toEqual([
      'field:1',
      'segment:2',
      'metric:3',
    ]);
  });

  it('scores the shared references against the smaller set', () => {
    expect(similarity(new Set(['field:1']), new Set(['field:1', 'field:2']))).toBe(1);
    expect(similarity(new Set(['field:1', 'field:3']), new Set(['field:1', 'field:2']))).toBe(0.5);
    expect(similarity(new Set(), new Set(['field:1']))).toBe(0);
  });

  it('ranks most similar first, keeping ties in order, bounded', () => {
    const items = [
      { n: 'a', d: ['field', 9, null] },
      { n: 'b', d: ['field', 1, null] },
      { n: 'c', d: ['field', 8, null] },
      { n: 'd', d: ['field', 1, null] },
    ];
    expect(rankBySimilarity(['=', ['field', 1, null], 2], items, (x) => x.d, 3).map((x) => x.n)).toEqual(['b', 'd', 'a']);
  });
});
