import { normalizeDatasetQuery } from './normalize';
import { InvalidQueryError, validateDatasetQuery } from './validate';

describe('normalizeDatasetQuery', () => {
  it('accepts snake_case keys and clause names, and legacy reference forms', () => {
    const q = normalizeDatasetQuery({
      database: 1,
      type: 'QUERY',
      query: {
        source_table: 5,
        aggregation: ['count'],
        breakout: [
          ['datetime-field', ['field-id', 10], 'month'],
          ['fk->', ['field-id', 11], ['field-id', 20]],
        ],
        filter: ['and', ['contains', ['field_id', 12], 'ab', { case_sensitive: false }], ['time_interval', ['field-id', 10], -30, 'day']],
        order_by: [[['field-id', 10], 'descending']],
        fields: [
          7,
          ['field-literal', 'TOTAL', 'type/Float'],
          ['joined-field', 'P', ['field-id', 21]],
          ['binning-strategy', ['field-id', 13], 'num-bins', 10],
        ],
      },
    });
    expect(q.type).toBe('query');
    expect(q.query).toEqual({
      'source-table': 5,
      aggregation: [['count']],
      breakout: [
        ['field', 10, { 'temporal-unit': 'month' }],
        ['field', 20, { 'source-field': 11 }],
      ],
      filter: [
        'and',
        ['contains', ['field', 12, null], 'ab', { 'case-sensitive': false }],
        ['time-interval', ['field', 10, null], -30, 'day'],
      ],
      'order-by': [['desc', ['field', 10, null]]],
      fields: [
        ['field', 7, null],
        ['field', 'TOTAL', { 'base-type': 'type/Float' }],
        ['field', 21, { 'join-alias': 'P' }],
        ['field', 13, { binning: { strategy: 'num-bins', 'num-bins': 10 } }],
      ],
    });
  });

  it('normalizes nested source queries, joins and native template tags', () => {
    const q = normalizeDatasetQuery({
      database: 1,
      type: 'query',
      query: {
        source_query: { source_table: 2, aggregation: [['count']] },
        joins: [{ source_table: 3, alias: 'J', condition: ['=', ['field-id', 1], ['joined-field', 'J', ['field-id', 2]]] }],
      },
    });
    expect(q.query!['source-query']).toEqual({ 'source-table': 2, aggregation: [['count']] });
    expect(q.query!.joins![0].condition).toEqual(['=', ['field', 1, null], ['field', 2, { 'join-alias': 'J' }]]);
    const n = normalizeDatasetQuery({
      database: 1,
      type: 'native',
      native: { query: 'select 1', template_tags: { x: { name: 'x', display_name: 'X', type: 'dimension', dimension: ['field-id', 4] } } },
    });
    expect(n.native!['template-tags']!.x).toEqual({ name: 'x', 'display-name': 'X', type: 'dimension', dimension: ['field', 4, null] });
  });
});

describe('validateDatasetQuery', () => {
  const check = (query: unknown) => () => validateDatasetQuery(normalizeDatasetQuery(query));

  it.each([
    [{ database: 0, type: 'query', query: { 'source-table': 1 } }, 'database'],
    [{ database: 1, type: 'sql' }, 'type'],
    [{ database: 1, type: 'query', query: {} }, 'query'],
    [{ database: 1, type: 'query', query: { 'source-table': 'orders' } }, 'query.source-table'],
    [{ database: 1, type: 'query', query: { 'source-table': 1, aggregation: [['frobnicate']] } }, 'query.aggregation[0]'],
    [
      { database: 1, type: 'query', query: { 'source-table': 1, breakout: [['field', 1, { 'temporal-unit': 'fortnight' }]] } },
      'query.breakout[0]',
    ],
    [
      { database: 1, type: 'query', query: { 'source-table': 1, filter: ['time-interval', ['field', 1, null], 'soon', 'day'] } },
      'query.filter',
    ],
    [{ database: 1, type: 'query', query: { 'source-table': 1, limit: -1 } }, 'query.limit'],
    [
      { database: 1, type: 'query', query: { 'source-table': 1, joins: [{ 'source-table': 2, condition: ['=', 1, 1] }] } },
      'query.joins[0]',
    ],
    [
      { database: 1, type: 'query', query: { 'source-table': 1, aggregation: [['percentile', ['field', 1, null], 5]] } },
      'query.aggregation[0]',
    ],
    [{ database: 1, type: 'native', native: { query: '  ' } }, 'native.query'],
    [{ database: 1, type: 'query', query: { 'source-table': 1, native: 'SELECT 1' } }, 'query.native'],
    [{ database: 1, type: 'query', query: { 'source-query': { 'source-table': 1, native: 'SELECT 1' } } }, 'query.source-query.native'],
    [
      {
        database: 1,
        type: 'query',
        query: { 'source-table': 1, joins: [{ alias: 'j', 'source-table': 2, native: 'SELECT 1', condition: ['=', 1, 1] }] },
      },
      'query.joins[0].native',
    ],
    [
      {
        database: 1,
        type: 'query',
        query: {
          'source-table': 1,
          joins: [{ alias: 'j', 'source-query': { 'source-table': 2, native: 'SELECT 1' }, condition: ['=', 1, 1] }],
        },
      },
      'query.joins[0].source-query.native',
    ],
    [
      { database: 1, type: 'query', query: { 'source-table': 1 }, constraints: { 'max-results-bare-rows': 0 } },
      'constraints.max-results-bare-rows',
    ],
  ])('refuses %j naming %s', (query, clause) => {
    expect(check(query)).toThrow(InvalidQueryError);
    try {
      check(query)();
    } catch (e) {
      expect((e as InvalidQueryError).clause).toBe(clause);
    }
  });

  it('accepts a full query', () => {
    expect(
      check({
        database: 1,
        type: 'query',
        query: {
          'source-table': 1,
          expressions: { double: ['*', ['field', 2, null], 2] },
          filter: ['and', ['=', ['field', 1, null], 'a', 'b'], ['not-null', ['expression', 'double']]],
          aggregation: [['aggregation-options', ['sum-where', ['field', 2, null], ['>', ['field', 2, null], 1]], { name: 'big' }]],
          breakout: [['field', 3, { 'temporal-unit': 'month-of-year' }]],
          'order-by': [['desc', ['aggregation', 0]]],
          page: { page: 2, items: 10 },
        },
      }),
    ).not.toThrow();
  });
});

describe('constraints', () => {
  it('clamps row caps above the download limit of 1,048,575 and keeps smaller ones', () => {
    const q = normalizeDatasetQuery({
      database: 1,
      type: 'query',
      query: { 'source-table': 1 },
      constraints: { max_results: 5_000_000, 'max-results-bare-rows': 10 },
    });
    expect(q.constraints).toEqual({ 'max-results': 1_048_575, 'max-results-bare-rows': 10 });
  });
});
