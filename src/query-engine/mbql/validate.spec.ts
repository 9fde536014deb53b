import type { DatasetQuery, InnerQuery } from './types';
import {
  InvalidQueryError,
  validateCardQuery,
  validateInner,
  validateMetricDefinition,
  validateParameterRef,
  validateSegmentFilter,
} from './validate';

const F = ['field', 1, null];
const reason = (check: () => void): string => {
  try {
    check();
  } catch (e) {
    if (e instanceof InvalidQueryError) return `${e.clause}: ${e.reason}`;
    throw e;
  }
  return 'accepted';
};
const inner = (q: Record<string, unknown>) => reason(() => validateInner({ 'source-table': 1, ...q } as InnerQuery, 'query'));

/** The shapes the compiler relies on (it no longer checks them itself). */
describe('validateInner', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'a clause with too few arguments',
      { filter: ['between', F, 1] },
      'query.filter: wrong number of arguments to "between" (2; it takes 3).',
    ],
    [
      'a clause with too many arguments',
      { filter: ['is-null', F, 1] },
      'query.filter: wrong number of arguments to "is-null" (2; it takes 1).',
    ],
    [
      'an expression with the wrong arity',
      { expressions: { x: ['substring', F] } },
      'query.expressions.x: wrong number of arguments to "substring" (1; it takes 2 to 3).',
    ],
    [
      'an aggregation without its argument',
      { aggregation: [['sum']] },
      'query.aggregation[0]: wrong number of arguments to "sum" (0; it takes 1 or more).',
    ],
    [
      'sum-where checks its expression too',
      { aggregation: [['sum-where', ['lower'], ['=', F, 1]]] },
      'query.aggregation[0]: wrong number of arguments to "lower" (0; it takes 1).',
    ],
    [
      'an empty "and" inside an expression',
      { expressions: { x: ['case', [[['and'], 1]]] } },
      'query.expressions.x: "and" needs at least one clause.',
    ],
    ['a filter value that is not an expression', { filter: ['=', F, { $gt: 1 }] }, 'query.filter: expected an expression, got {"$gt":1}.'],
    [
      'a filter value with the wrong arity',
      { filter: ['=', F, ['+', 1]] },
      'query.filter: wrong number of arguments to "+" (1; it takes 2 or more).',
    ],
    [
      'options of a string filter that are not a map',
      { filter: ['contains', F, 'a', 'yes'] },
      'query.filter: the options of "contains" must be a map.',
    ],
    ['time-interval on a literal', { filter: ['time-interval', 'x', -1, 'day'] }, 'query.filter: expected a field reference, got "x".'],
    [
      'time-interval inside a case',
      { expressions: { x: ['case', [[['time-interval', F, 'x', 'day'], 1]]] } },
      'query.expressions.x: the amount must be an integer, "current", "last" or "next".',
    ],
    [
      'a case default with the wrong arity',
      { expressions: { x: ['case', [[['=', F, 1], 1]], { default: ['abs'] }] } },
      'query.expressions.x: wrong number of arguments to "abs" (0; it takes 1).',
    ],
    ['field options that are a list', { fields: [['field', 1, ['x']]] }, 'query.fields[0]: field options must be a map.'],
    ['expression options that are not a map', { fields: [['expression', 'x', 5]] }, 'query.fields[0]: expression options must be a map.'],
    [
      'an unknown unit on an expression',
      { breakout: [['expression', 'x', { 'temporal-unit': 'fortnight' }]] },
      'query.breakout[0]: unknown temporal unit "fortnight".',
    ],
    ['a join alias that is not a string', { fields: [['field', 1, { 'join-alias': 5 }]] }, 'query.fields[0]: Invalid join-alias 5.'],
    ['binning that is not a map', { breakout: [['field', 1, { binning: 'x' }]] }, 'query.breakout[0]: Invalid binning "x".'],
    [
      'join fields neither "all", "none" nor a list',
      { joins: [{ alias: 'J', 'source-table': 2, condition: ['=', F, F], fields: 'some' }] },
      'query.joins[0].fields: Join "fields" must be "all", "none" or a list.',
    ],
    [
      'a bad reference among join fields',
      { joins: [{ alias: 'J', 'source-table': 2, condition: ['=', F, F], fields: [5] }] },
      'query.joins[0].fields[0]: expected a field reference, got 5.',
    ],
    [
      'a join alias used twice',
      {
        joins: [
          { alias: 'J', 'source-table': 2, condition: ['=', F, F] },
          { alias: 'J', 'source-table': 2, condition: ['=', F, F] },
        ],
      },
      'query.joins[1]: Duplicate join alias "J": the alias is used twice.',
    ],
  ])('refuses %s', (_name, q, expected) => {
    expect(inner(q)).toBe(expected);
  });

  it('accepts what the compiler compiles', () => {
    expect(
      inner({
        expressions: {
          x: [
            'case',
            [
              [
                ['=', F, 1],
                ['concat', 'a', F],
              ],
            ],
            { default: ['substring', F, 1, 2] },
          ],
          y: ['datetime-add', F, 1, 'day'],
        },
        filter: [
          'and',
          ['contains', F, 'a', { 'case-sensitive': false }],
          ['between', F, 1, 2],
          ['time-interval', ['expression', 'y'], 'current', 'day'],
          ['=', F, ['value', 1, null], null],
        ],
        aggregation: [['count'], ['sum-where', F, ['>', F, 1]], ['percentile', F, 0.5], ['count', F]],
        breakout: [
          ['field', 1, { binning: { strategy: 'num-bins', 'num-bins': 10 } }],
          ['field', 2, { 'temporal-unit': null }],
        ],
        joins: [{ alias: 'J', 'source-table': 2, condition: ['=', F, ['field', 3, { 'join-alias': 'J' }]], fields: 'all' }],
      }),
    ).toBe('accepted');
  });
});

describe('spliced queries name what they come from', () => {
  const card = (query: Partial<DatasetQuery>): DatasetQuery => ({ database: 1, type: 'query', ...query }) as DatasetQuery;

  it('names the card', () => {
    expect(() => validateCardQuery(12, card({ query: { 'source-table': 1, breakout: 'x' as never } }))).toThrow(
      'Invalid query: card 12: query.breakout: must be a list.',
    );
    expect(() => validateCardQuery(12, card({ query: { 'source-table': 1, limit: -1 } }))).toThrow(
      new InvalidQueryError('must be a non-negative integer.', 'card 12: query.limit'),
    );
    expect(() => validateCardQuery(3, card({ type: 'native', native: { query: '' } }))).toThrow(
      'Invalid query: card 3: native.query: a native query needs a non-blank `query` string.',
    );
    expect(() => validateCardQuery(12, card({ query: { 'source-table': 1, aggregation: [['count']] } }))).not.toThrow();
  });

  it('names the segment and the metric', () => {
    expect(() => validateSegmentFilter(4, ['=', F])).toThrow('Invalid query: segment 4: filter: "=" needs a value.');
    expect(() => validateMetricDefinition(5, ['avg'], undefined)).toThrow(
      'Invalid query: metric 5: aggregation[0]: wrong number of arguments to "avg" (0; it takes 1 or more).',
    );
    expect(() => validateMetricDefinition(5, ['count'], ['is-null'])).toThrow('Invalid query: metric 5: filter: "is-null" needs a field.');
    expect(() => validateMetricDefinition(5, ['sum', F], ['>', F, 1])).not.toThrow();
  });

  it('checks a parameter target as a reference', () => {
    expect(() => validateParameterRef(['field', 1, { 'source-field': 'x' }], 'parameters[0].target')).toThrow(
      'Invalid query: parameters[0].target: `source-field` must be a field id.',
    );
    expect(() => validateParameterRef(['field', 1, null], 'parameters[0].target')).not.toThrow();
  });
});
