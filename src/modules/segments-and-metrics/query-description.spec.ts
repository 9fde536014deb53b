import { describeQuery, references } from './query-description';

const names = {
  table: 'Orders',
  fields: new Map([
    [1, 'Total'],
    [2, 'Created At'],
    [3, 'Tax'],
  ]),
  segments: new Map([[7, 'Big orders']]),
  metrics: new Map([[9, 'Revenue']]),
};

describe('query description', () => {
  it('lists the fields, segments and metrics a definition names', () => {
    const def = {
      'source-table': 5,
      aggregation: [
        ['sum', ['field', 1, null]],
        ['metric', 9],
      ],
      filter: ['and', ['>', ['field', 3, null], 1], ['segment', 7]],
    };
    expect(references(def)).toEqual({ fields: [1, 3], segments: [7], metrics: [9] });
  });

  it('describes a segment: the table and each field or segment of the filter', () => {
    const def = { 'source-table': 5, filter: ['and', ['>', ['field', 1, null], 100], ['segment', 7], ['segment', 8]] };
    expect(describeQuery(def, names)).toEqual({
      table: 'Orders',
      filter: [{ field: 'Total' }, { segment: 'Big orders' }, { segment: '[Unknown Segment]' }],
    });
  });

  it('describes a metric: its aggregations with their fields, and its filter', () => {
    const def = {
      aggregation: [
        ['sum', ['field', 1, null]],
        ['count'],
        ['aggregation-options', ['avg', ['field', 3, null]], { name: 'x' }],
        ['metric', 9],
        ['metric', 10],
      ],
      filter: ['=', ['field', 2, { 'temporal-unit': 'year' }], '2024'],
    };
    expect(describeQuery(def, names)).toEqual({
      table: 'Orders',
      aggregation: [
        { type: 'sum', arg: 'Total' },
        { type: 'count' },
        { type: 'avg', arg: 'Tax' },
        { type: 'metric', arg: 'Revenue' },
        { type: 'metric', arg: '[Unknown Metric]' },
      ],
      filter: [{ field: 'Created At' }],
    });
  });

  it('describes breakouts, ordering and limits; no definition is just the table', () => {
    const def = { breakout: [['field', 2, null]], 'order-by': [['desc', ['field', 1, null]]], limit: 10 };
    expect(describeQuery(def, names)).toEqual({
      table: 'Orders',
      breakout: ['Created At'],
      'order-by': [{ field: 'Total', direction: 'desc' }],
      limit: 10,
    });
    expect(describeQuery(null, { ...names, table: null })).toEqual({ table: null });
  });
});
