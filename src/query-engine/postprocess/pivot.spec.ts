import {
  breakoutCombinations,
  groupBitmask,
  groupingSetsApply,
  MAX_PIVOT_BREAKOUTS,
  pivotColumns,
  pivotOptions,
  PivotOutcome,
  PivotQueryRunner,
  runPivot,
  spreadRows,
  subQuery,
} from './pivot';
import type { QueryResults } from './results';
import type { Ref } from '../mbql/types';

describe('pivot', () => {
  it('numbers groups as Postgres numbers grouping sets', () => {
    expect(groupBitmask(3, [0])).toBe(6);
    expect(groupBitmask(3, [0, 1])).toBe(4);
    expect(groupBitmask(3, [0, 1, 2])).toBe(0);
    expect(groupBitmask(3, [])).toBe(7);
  });

  it("computes the groupings in one GROUPING SETS query only without windows over one grouping's rows", () => {
    const by = { 'source-table': 1, breakout: [['field', 2, { 'temporal-unit': 'month' }] as Ref] };
    expect(groupingSetsApply({ ...by, aggregation: [['count']] })).toBe(true);
    expect(groupingSetsApply({ ...by, aggregation: [['count'], ['offset', {}, ['count'], -1]] })).toBe(false);
    expect(groupingSetsApply({ ...by, aggregation: [['-', ['count'], ['offset', {}, ['count'], -1]]] })).toBe(false);
    expect(groupingSetsApply({ ...by, aggregation: [['cum-sum', ['field', 3, null]]] })).toBe(false);
  });

  it('lists the combinations a split needs, by bitmask', () => {
    expect(breakoutCombinations(3, [1, 2], [])).toEqual([[0, 1, 2], [1, 2], [1], []]);
    expect(breakoutCombinations(4, [0, 1, 2], [3])).toEqual([[0, 1, 2, 3], [0, 1, 3], [0, 3], [3], [0, 1, 2], [0, 1], [0], []]);
    expect(breakoutCombinations(2, [], [])).toEqual([[0, 1], [1], [0], []]);
    expect(breakoutCombinations(0, [], [])).toEqual([[]]);
    expect(() => breakoutCombinations(2, [2], [])).toThrow(
      'Invalid pivot-rows: specified breakout at index 2, but we only have 2 breakouts',
    );
    expect(() => breakoutCombinations(2, [0], [-1])).toThrow(/Invalid pivot-cols/);
  });

  it('keeps the chosen breakouts and only aggregation ordering', () => {
    const a: Ref = ['field', 1, null];
    const b: Ref = ['field', 2, { 'temporal-unit': 'year' }];
    const q = {
      'source-table': 1,
      breakout: [a, b],
      aggregation: [['count'] as ['count']],
      'order-by': [
        ['asc', a],
        ['desc', ['aggregation', 0]],
      ] as never,
    };
    expect(subQuery(q, [1])).toEqual({
      'source-table': 1,
      breakout: [b],
      aggregation: [['count']],
      'order-by': [['desc', ['aggregation', 0]]],
    });
    const none = subQuery({ ...q, 'order-by': [['asc', a]] as never }, []);
    expect(none.breakout).toBeUndefined();
    expect(none['order-by']).toBeUndefined();
  });

  it('spreads rows into the full layout with pivot-grouping after the breakouts', () => {
    expect(spreadRows([['x', 5, 6]], 3, [1])).toEqual([[null, 'x', null, 5, 5, 6]]);
    expect(pivotColumns(['a', 'b', 'count'], 2, 'g')).toEqual(['a', 'b', 'g', 'count']);
  });

  it('finds the split in the visualization settings, then in the query', () => {
    const a: Ref = ['field', 1, null];
    const b: Ref = ['field', 2, { 'temporal-unit': 'year' }];
    expect(pivotOptions([a, b], { rows: [0] }, { rows: [['field', 2, { 'temporal-unit': 'month' }]], columns: [a] }, ['A', 'B'])).toEqual({
      rows: [1],
      cols: [0],
    });
    expect(pivotOptions([a, b], {}, { rows: ['B'], columns: [] }, ['A', 'B', 'count'])).toEqual({ rows: [1], cols: [] });
    expect(pivotOptions([a, b], { rows: [1], cols: [0] }, undefined, [])).toEqual({ rows: [1], cols: [0] });
    expect(pivotOptions([a, b], {}, undefined, [])).toEqual({ rows: [], cols: [] });
  });
});

describe('runPivot', () => {
  const a: Ref = ['field', 1, null];
  const b: Ref = ['field', 2, null];
  const query = { 'source-table': 1, breakout: [a, b], aggregation: [['count'] as ['count']] };
  /** Every grouping has `per` rows; records what each run asked for. */
  const fake =
    (per: number, asked: Array<{ breakouts: number; maxRows: number; sets: boolean }>): PivotQueryRunner =>
    async (q, opts) => {
      asked.push({ breakouts: q.breakout?.length ?? 0, maxRows: opts.maxRows, sets: Boolean(opts.groupingSets) });
      const width = (q.breakout?.length ?? 0) + 1;
      const rows = Array.from({ length: Math.min(per, opts.maxRows) }, (_, i) => Array.from({ length: width }, () => i));
      const cols = Array.from({ length: width }, (_, i) => ({ name: `c${i}` }));
      return {
        status: 'completed',
        data: { rows, cols, ...(per >= opts.maxRows ? { rows_truncated: opts.maxRows } : {}) },
        row_count: rows.length,
      } as unknown as QueryResults;
    };

  it('never holds more than the cap: each grouping query gets only the rows still allowed, and none runs past it', async () => {
    const asked: Array<{ breakouts: number; maxRows: number; sets: boolean }> = [];
    const out = (await runPivot(query, { maxRows: 25, groupingSets: false }, fake(10, asked))) as PivotOutcome;
    expect(asked.map((x) => x.maxRows)).toEqual([25, 15, 5]);
    expect(out.rows).toHaveLength(25);
    expect(out.truncated).toBe(true);
    expect(out.queries).toBe(3);
  });

  it('is one query where the engine has GROUPING SETS, and refuses too many breakouts', async () => {
    const asked: Array<{ breakouts: number; maxRows: number; sets: boolean }> = [];
    const out = (await runPivot(query, { maxRows: 2000, groupingSets: true }, fake(3, asked))) as PivotOutcome;
    expect(asked).toEqual([{ breakouts: 2, maxRows: 2000, sets: true }]);
    expect(out.queries).toBe(1);
    const many = { ...query, breakout: Array.from({ length: MAX_PIVOT_BREAKOUTS + 1 }, () => a) };
    await expect(runPivot(many, { maxRows: 2000, groupingSets: true }, fake(1, asked))).rejects.toThrow(
      'A pivot table can have at most 8 breakouts; this query has 9.',
    );
    expect(asked).toHaveLength(1);
  });
});
