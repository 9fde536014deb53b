import type { InnerQuery, ParameterValue } from '../../src/query-engine/mbql/types';
import { addFilter, applyParameters, parseDimensionTarget } from '../../src/query-engine/parameters/apply-mbql';
import { ParameterError } from '../../src/query-engine/parameters/errors';
import { hasValue, parameterToFilter, type FilterTarget, type ToFilterOptions } from '../../src/query-engine/parameters/to-filter';

const F: FilterTarget = ['field', 10, null];
const NOW = new Date('2024-05-15T14:30:00Z');
const opts: ToFilterOptions = { now: NOW, timezone: 'UTC' };
const f = (type: string, value: unknown, o: ToFilterOptions = opts, target: FilterTarget = F) =>
  parameterToFilter({ type, value }, target, o);
const day = ['field', 10, { 'temporal-unit': 'day' }];
const minute = ['field', 10, { 'temporal-unit': 'minute' }];

describe('parameterToFilter', () => {
  it('no value means no filter', () => {
    for (const v of [null, undefined, '', [], [null], ['', null]]) {
      expect(f('category', v)).toBeNull();
      expect(f('date/single', v)).toBeNull();
      expect(f('number/between', v)).toBeNull();
      expect(hasValue(v)).toBe(false);
    }
  });

  it.each([
    ['category', 'Widget', ['=', F, 'Widget']],
    ['category', ['Widget', 'Gizmo'], ['=', F, 'Widget', 'Gizmo']],
    ['id', 12, ['=', F, 12]],
    ['id', [1, 2, 3], ['=', F, 1, 2, 3]],
    ['text', 'x', ['=', F, 'x']],
    ['location/city', 'Zürich', ['=', F, 'Zürich']],
    ['location/state', ['CA', 'NY'], ['=', F, 'CA', 'NY']],
    ['location/zip_code', '02139', ['=', F, '02139']],
    ['location/country', 'CH', ['=', F, 'CH']],
    ['string/=', ['a', 'b'], ['=', F, 'a', 'b']],
    ['string/!=', 'a', ['!=', F, 'a']],
    ['string/!=', ['a', 'b'], ['!=', F, 'a', 'b']],
    ['string/contains', 'ab', ['contains', F, 'ab', { 'case-sensitive': false }]],
    [
      'string/contains',
      ['a', 'b'],
      ['or', ['contains', F, 'a', { 'case-sensitive': false }], ['contains', F, 'b', { 'case-sensitive': false }]],
    ],
    ['string/does-not-contain', 'ab', ['does-not-contain', F, 'ab', { 'case-sensitive': false }]],
    [
      'string/does-not-contain',
      ['a', 'b'],
      ['and', ['does-not-contain', F, 'a', { 'case-sensitive': false }], ['does-not-contain', F, 'b', { 'case-sensitive': false }]],
    ],
    ['string/starts-with', 'ab', ['starts-with', F, 'ab', { 'case-sensitive': false }]],
    ['string/ends-with', ['x'], ['ends-with', F, 'x', { 'case-sensitive': false }]],
    ['number/=', 5, ['=', F, 5]],
    ['number/=', ['5', '6.5'], ['=', F, 5, 6.5]],
    ['number/!=', '-3', ['!=', F, -3]],
    ['number/between', [1, 10], ['between', F, 1, 10]],
    ['number/between', ['1', '1e3'], ['between', F, 1, 1000]],
    ['number/between', [1, null], ['>=', F, 1]],
    ['number/between', [null, 10], ['<=', F, 10]],
    ['number/>=', '7', ['>=', F, 7]],
    ['number/<=', [7], ['<=', F, 7]],
    ['number', '7', ['=', F, 7]],
  ])('%s %j', (type, value, expected) => {
    expect(f(type, value)).toEqual(expected);
  });

  it('types category values after the field', () => {
    expect(f('category', ['1', '2'], { ...opts, baseType: 'type/Integer' })).toEqual(['=', F, 1, 2]);
    expect(f('id', '12', { ...opts, baseType: 'type/BigInteger' })).toEqual(['=', F, 12]);
    expect(f('string/=', '1.5', { ...opts, baseType: 'type/Float' })).toEqual(['=', F, 1.5]);
    expect(f('category', 'true', { ...opts, baseType: 'type/Boolean' })).toEqual(['=', F, true]);
    expect(f('category', '12', { ...opts, baseType: 'type/Text' })).toEqual(['=', F, '12']);
    expect(() => f('id', 'abc', { ...opts, baseType: 'type/Integer' })).toThrow(ParameterError);
    expect(() => f('category', 'maybe', { ...opts, baseType: 'type/Boolean' })).toThrow(ParameterError);
  });

  it('rejects non-numeric numbers', () => {
    for (const v of ['abc', '1,5', '12abc', 'NaN', 'Infinity', {}, true]) expect(() => f('number/=', v)).toThrow(ParameterError);
    expect(() => f('number/=', 'abc')).toThrow(/"abc" is not a number/);
    expect(() => f('number/between', [1])).toThrow(ParameterError);
    expect(() => f('number/between', [1, 'x'])).toThrow(ParameterError);
    expect(() => f('number/>=', [1, 2])).toThrow(ParameterError);
  });

  it('rejects unknown types and odd values', () => {
    expect(() => f('banana', 'x')).toThrow(new ParameterError('Unknown parameter type "banana"'));
    expect(() => f('string/like', 'x')).toThrow(ParameterError);
    expect(() => f('location/planet', 'x')).toThrow(ParameterError);
    expect(() => f('date/someday', '2024-05-01')).toThrow(ParameterError);
    expect(() => f('category', [{ a: 1 }])).toThrow(ParameterError);
    expect(() => f('string/contains', [['x']])).toThrow(ParameterError);
  });

  describe('dates', () => {
    it.each([
      ['date/single', '2024-05-01', ['and', ['>=', day, '2024-05-01'], ['<', day, '2024-05-02']]],
      ['date/single', '2024-05-01T10:30', ['and', ['>=', minute, '2024-05-01T10:30:00'], ['<', minute, '2024-05-01T10:31:00']]],
      ['date/range', '2024-05-01~2024-05-31', ['and', ['>=', day, '2024-05-01'], ['<', day, '2024-06-01']]],
      ['date/range', '~2024-05-01', ['<', day, '2024-05-02']],
      ['date/range', '2024-05-01~', ['>=', day, '2024-05-01']],
      ['date/month-year', '2024-02', ['and', ['>=', day, '2024-02-01'], ['<', day, '2024-03-01']]],
      ['date/quarter-year', 'Q4-2024', ['and', ['>=', day, '2024-10-01'], ['<', day, '2025-01-01']]],
      ['date/relative', 'past30days', ['time-interval', F, -30, 'day']],
      ['date/relative', 'past30days~', ['time-interval', F, -30, 'day', { 'include-current': true }]],
      ['date/relative', 'next3months', ['time-interval', F, 3, 'month']],
      ['date/relative', 'thismonth', ['time-interval', F, 'current', 'month']],
      ['date/relative', 'lastyear', ['time-interval', F, 'last', 'year']],
      ['date/relative', 'today', ['time-interval', F, 'current', 'day']],
      ['date/relative', 'yesterday', ['time-interval', F, 'last', 'day']],
      ['date/relative', 'past3months-from-1years', ['and', ['>=', day, '2023-02-01'], ['<', day, '2023-05-01']]],
      ['date/all-options', 'exclude-days-Mon-Tue', ['!=', ['field', 10, { 'temporal-unit': 'day-of-week' }], 2, 3]],
      ['date/all-options', 'exclude-months-Jan', ['!=', ['field', 10, { 'temporal-unit': 'month-of-year' }], 1]],
      ['date/all-options', 'exclude-quarters-1', ['!=', ['field', 10, { 'temporal-unit': 'quarter-of-year' }], 1]],
      ['date/all-options', 'exclude-hours-0-23', ['!=', ['field', 10, { 'temporal-unit': 'hour-of-day' }], 0, 23]],
      ['date', '2024-05', ['and', ['>=', day, '2024-05-01'], ['<', day, '2024-06-01']]],
    ])('%s %s', (type, value, expected) => {
      expect(f(type, value)).toEqual(expected);
    });

    it('resolves relative strings against now when asked', () => {
      expect(f('date/relative', 'past30days', { ...opts, relativeDates: 'range' })).toEqual([
        'and',
        ['>=', day, '2024-04-15'],
        ['<', day, '2024-05-15'],
      ]);
      expect(f('date/relative', 'thishour', { ...opts, relativeDates: 'range' })).toEqual([
        'and',
        ['>=', minute, '2024-05-15T14:00:00'],
        ['<', minute, '2024-05-15T15:00:00'],
      ]);
    });

    it('several date values are ORed', () => {
      expect(f('date/single', ['2024-05-01', '2024-06-01'])).toEqual([
        'or',
        ['and', ['>=', day, '2024-05-01'], ['<', day, '2024-05-02']],
        ['and', ['>=', day, '2024-06-01'], ['<', day, '2024-06-02']],
      ]);
    });

    it('keeps the target options but replaces its unit', () => {
      const target: FilterTarget = ['field', 10, { 'temporal-unit': 'month', 'join-alias': 'O', 'base-type': 'type/DateTime' }];
      expect(f('date/single', '2024-05-01', opts, target)).toEqual([
        'and',
        ['>=', ['field', 10, { 'temporal-unit': 'day', 'join-alias': 'O', 'base-type': 'type/DateTime' }], '2024-05-01'],
        ['<', ['field', 10, { 'temporal-unit': 'day', 'join-alias': 'O', 'base-type': 'type/DateTime' }], '2024-05-02'],
      ]);
      expect(f('date/relative', 'today', opts, target)).toEqual([
        'time-interval',
        ['field', 10, { 'join-alias': 'O', 'base-type': 'type/DateTime' }],
        'current',
        'day',
      ]);
      expect(f('category', 'x', opts, target)).toEqual(['=', ['field', 10, { 'join-alias': 'O', 'base-type': 'type/DateTime' }], 'x']);
    });

    it('works on expressions', () => {
      expect(f('date/single', '2024-05-01', opts, ['expression', 'when'])).toEqual([
        'and',
        ['>=', ['expression', 'when', { 'temporal-unit': 'day' }], '2024-05-01'],
        ['<', ['expression', 'when', { 'temporal-unit': 'day' }], '2024-05-02'],
      ]);
    });

    it('rejects bad date strings', () => {
      expect(() => f('date/quarter-year', 'Q5-2024')).toThrow('"Q5-2024" is not a valid date parameter');
      expect(() => f('date/single', 20240501)).toThrow(ParameterError);
    });
  });
});

describe('applyParameters (MBQL)', () => {
  const p = (type: string, target: unknown[], value: unknown): ParameterValue => ({ type, target, value });
  const dim = (id: number | string, o: Record<string, unknown> | null = null) => ['dimension', ['field', id, o]];

  it('adds filters with and', () => {
    const q: InnerQuery = { 'source-table': 1 };
    const out = applyParameters(q, [p('category', dim(10), 'Widget'), p('number/>=', dim(11), '5')], opts);
    expect(out).toEqual({ 'source-table': 1, filter: ['and', ['=', ['field', 10, null], 'Widget'], ['>=', ['field', 11, null], 5]] });
    expect(q).toEqual({ 'source-table': 1 });
  });

  it('combines with an existing filter and flattens an existing and', () => {
    expect(applyParameters({ 'source-table': 1, filter: ['>', ['field', 1, null], 0] }, [p('id', dim(10), 3)])).toEqual({
      'source-table': 1,
      filter: ['and', ['>', ['field', 1, null], 0], ['=', ['field', 10, null], 3]],
    });
    expect(applyParameters({ 'source-table': 1, filter: ['and', ['a'], ['b']] }, [p('id', dim(10), 3)]).filter).toEqual([
      'and',
      ['a'],
      ['b'],
      ['=', ['field', 10, null], 3],
    ]);
    expect(addFilter(undefined, ['x'])).toEqual(['x']);
  });

  it('skips parameters without a value', () => {
    const q: InnerQuery = { 'source-table': 1 };
    expect(applyParameters(q, [p('category', dim(10), null), p('category', dim(10), [])])).toEqual(q);
    expect(applyParameters(q, undefined)).toEqual(q);
  });

  it('types values after the field when told its base type', () => {
    const out = applyParameters({ 'source-table': 1 }, [p('category', dim(10), ['1', '2'])], {
      fieldBaseType: (id) => (id === 10 ? 'type/Integer' : null),
    });
    expect(out.filter).toEqual(['=', ['field', 10, null], 1, 2]);
    const byName = applyParameters({ 'source-table': 1 }, [p('category', dim('qty', { 'base-type': 'type/Integer' }), '3')]);
    expect(byName.filter).toEqual(['=', ['field', 'qty', { 'base-type': 'type/Integer' }], 3]);
  });

  it('puts id refs at the top of a nested query, expressions where they are defined, stage-number where asked', () => {
    const q: InnerQuery = {
      'source-query': { 'source-table': 1, expressions: { double: ['*', ['field', 11, null], 2] }, filter: ['=', ['field', 12, null], 1] },
      aggregation: [['count']],
    };
    const out = applyParameters(q, [
      p('category', dim(10), 'x'),
      p('number/=', ['dimension', ['expression', 'double']], 4),
      p('category', ['dimension', ['field', 13, null], { 'stage-number': 0 }], 'y'),
      p('category', ['dimension', ['field', 14, null], { 'stage-number': -1 }], 'z'),
    ]);
    expect(out.filter).toEqual(['and', ['=', ['field', 10, null], 'x'], ['=', ['field', 14, null], 'z']]);
    expect(out['source-query']!.filter).toEqual([
      'and',
      ['=', ['field', 12, null], 1],
      ['=', ['expression', 'double'], 4],
      ['=', ['field', 13, null], 'y'],
    ]);
    expect(q['source-query']!.filter).toEqual(['=', ['field', 12, null], 1]);
  });

  it('puts a field filter where the field is still a column', () => {
    const aggregated: InnerQuery = {
      'source-query': { 'source-table': 1, aggregation: [['count']], breakout: [['field', 5, { 'temporal-unit': 'month' }]] },
      filter: ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 1],
    };
    const out = applyParameters(aggregated, [
      p('category', dim(5), 'x'),
      p('category', dim(7), 'y'),
      p('number/>=', dim('count', { 'base-type': 'type/Integer' }), 3),
    ]);
    expect(out.filter).toEqual([
      'and',
      ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 1],
      ['=', ['field', 5, null], 'x'],
      ['>=', ['field', 'count', { 'base-type': 'type/Integer' }], 3],
    ]);
    expect(out['source-query']!.filter).toEqual(['=', ['field', 7, null], 'y']);

    const narrowed: InnerQuery = {
      'source-query': {
        'source-query': { 'source-table': 1 },
        fields: [['field', 1, null]],
        joins: [{ alias: 'J', 'source-table': 2, condition: ['='], fields: [['field', 9, { 'join-alias': 'J' }]] }],
      },
    };
    const n = applyParameters(narrowed, [p('id', dim(1), 1), p('id', dim(2), 2), p('id', dim(9), 9)]);
    expect(n.filter).toEqual(['and', ['=', ['field', 1, null], 1], ['=', ['field', 9, null], 9]]);
    expect(n['source-query']!.filter).toEqual(['=', ['field', 2, null], 2]);
    expect(n['source-query']!['source-query']!.filter).toBeUndefined();
  });

  it('applies date parameters', () => {
    const out = applyParameters(
      { 'source-table': 1 },
      [p('date/all-options', dim(20), 'past7days'), p('date/single', dim(21), '2024-05-01')],
      opts,
    );
    expect(out.filter).toEqual([
      'and',
      ['time-interval', ['field', 20, null], -7, 'day'],
      [
        'and',
        ['>=', ['field', 21, { 'temporal-unit': 'day' }], '2024-05-01'],
        ['<', ['field', 21, { 'temporal-unit': 'day' }], '2024-05-02'],
      ],
    ]);
  });

  it('rejects unknown targets', () => {
    const bad: unknown[] = [
      ['variable', ['template-tag', 'x']],
      ['dimension', ['template-tag', 'x']],
      ['dimension', ['fk->', ['field', 1, null], ['field', 2, null]]],
      ['dimension', ['field', null, null]],
      ['dimension', ['field', 1, 'opts']],
      ['dimension', 'x'],
      ['dimension', ['expression', 'nope']],
      ['dimension', ['field', 1, null], { 'stage-number': 5 }],
      ['dimension', ['field', 1, null], { 'stage-number': 'x' }],
      ['widget'],
    ];
    for (const target of bad) {
      expect(() => applyParameters({ 'source-table': 1 }, [p('category', target as unknown[], 'v')])).toThrow(ParameterError);
    }
    expect(() => applyParameters({ 'source-table': 1 }, [{ type: 'category', value: 'v' }])).toThrow(/Invalid parameter target/);
    expect(() => parseDimensionTarget(['variable', ['template-tag', 'x']])).toThrow(ParameterError);
  });

  it('propagates value errors', () => {
    expect(() => applyParameters({ 'source-table': 1 }, [p('number/=', dim(1), 'ten')])).toThrow(ParameterError);
    expect(() => applyParameters({ 'source-table': 1 }, [p('date/single', dim(1), 'Q5-2024')])).toThrow(
      '"Q5-2024" is not a valid date parameter',
    );
  });
});
