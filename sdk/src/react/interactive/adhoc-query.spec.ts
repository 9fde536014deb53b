import { applyEdits, describeFilter } from './adhoc-query';

const base = {
  database: 1,
  type: 'query',
  query: { 'source-table': 2, filter: ['>', ['field', 5, null], 10], 'order-by': [['asc', ['field', 3, null]]], limit: 5 },
};

describe('InteractiveQuestion query edits', () => {
  it('adds filters to the question own filter', () => {
    const q = applyEdits(
      base,
      [
        { fieldId: 7, op: '=', value: 'Gizmo' },
        { fieldId: 8, op: 'contains', value: 'ab' },
      ],
      null,
    );
    expect(q.query!.filter).toEqual([
      'and',
      ['>', ['field', 5, null], 10],
      ['=', ['field', 7, null], 'Gizmo'],
      ['contains', ['field', 8, null], 'ab', { 'case-sensitive': false }],
    ]);
    expect(q.query!.limit).toBe(5);
    expect(applyEdits({ ...base, query: { 'source-table': 2 } }, [{ fieldId: 7, op: '!=', value: 3 }], null).query!.filter).toEqual([
      '!=',
      ['field', 7, null],
      3,
    ]);
  });

  it('summarizes: one aggregation grouped by a column (dates by month), dropping ordering and limit', () => {
    const q = applyEdits(base, [], { aggregation: 'sum', fieldId: 9, breakout: { fieldId: 4, temporal: true } });
    expect(q.query).toEqual({
      'source-table': 2,
      filter: base.query.filter,
      aggregation: [['sum', ['field', 9, null]]],
      breakout: [['field', 4, { 'temporal-unit': 'month' }]],
    });
    expect(applyEdits(base, [], { aggregation: 'count' }).query!.aggregation).toEqual([['count']]);
    expect(applyEdits(base, [], { aggregation: 'count' }).query!.breakout).toBeUndefined();
  });

  it('leaves native questions alone, and describes a filter', () => {
    const native = { database: 1, type: 'native', native: { query: 'select 1' } };
    expect(applyEdits(native, [{ fieldId: 1, op: '=', value: 1 }], { aggregation: 'count' })).toBe(native);
    expect(describeFilter({ fieldId: 7, op: '>', value: 3 }, () => 'Price')).toBe('Price greater than 3');
  });
});
