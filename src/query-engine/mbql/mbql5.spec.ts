import { ALL_CASES } from '../../../test/engines/query-cases';
import { hasMbql5Form, toMbql5 } from '../../../test/support/mbql5';
import { isMbql5Query, mbql5ToLegacy } from './mbql5';
import { normalizeDatasetQuery, normalizeInner } from './normalize';
import { InvalidQueryError } from './validate';

const u = (n: number | string) => ({ 'lib/uuid': `uuid-${n}` });
const field = (id: number | string, extra: Record<string, unknown> = {}) => [
  'field',
  { ...u(`f${id}`), 'base-type': 'type/Integer', 'effective-type': 'type/Integer', ...extra },
  id,
];
const query = (...stages: unknown[]) => ({ 'lib/type': 'mbql/query', database: 1, stages });
const mbql = (extra: Record<string, unknown>) => ({ 'lib/type': 'mbql.stage/mbql', 'source-table': 3, ...extra });

/** The normalized legacy query an MBQL 5 query becomes. */
const legacy = (q: unknown) => normalizeDatasetQuery(q);

function invalid(q: unknown): string {
  try {
    normalizeDatasetQuery(q);
  } catch (e) {
    expect(e).toBeInstanceOf(InvalidQueryError);
    return (e as Error).message;
  }
  throw new Error('expected an InvalidQueryError');
}

describe('MBQL 5 to legacy MBQL', () => {
  it('knows MBQL 5 by its lib/type and leaves legacy queries alone', () => {
    expect(isMbql5Query(query(mbql({})))).toBe(true);
    expect(isMbql5Query({ database: 1, type: 'query', query: { 'source-table': 3 } })).toBe(false);
    expect(normalizeDatasetQuery({ database: 1, type: 'query', query: { 'source-table': 3 } }).query).toEqual({ 'source-table': 3 });
  });

  it('turns field options around and keeps only what the engine knows of them', () => {
    const q = legacy(
      query(
        mbql({
          fields: [
            field(12),
            field(13, { 'temporal-unit': 'month', 'join-alias': 'J', 'source-field': 7, ident: 'x', 'lib/source-column-alias': 'C' }),
            ['field', { ...u(1), 'base-type': 'type/Text' }, 'NAME'],
          ],
          breakout: [field(14, { binning: { strategy: 'num-bins', 'num-bins': 10 } })],
        }),
      ),
    );
    expect(q).toMatchObject({ database: 1, type: 'query' });
    expect(q.query).toEqual({
      'source-table': 3,
      fields: [
        ['field', 12, { 'base-type': 'type/Integer' }],
        ['field', 13, { 'base-type': 'type/Integer', 'temporal-unit': 'month', 'join-alias': 'J', 'source-field': 7 }],
        ['field', 'NAME', { 'base-type': 'type/Text' }],
      ],
      breakout: [['field', 14, { 'base-type': 'type/Integer', binning: { strategy: 'num-bins', 'num-bins': 10 } }]],
    });
    expect(legacy(query(mbql({ fields: [['field', u(1), 12]] }))).query!.fields).toEqual([['field', 12, null]]);
  });

  it('makes one filter of the filters list, with options in their legacy place', () => {
    const one = legacy(query(mbql({ filters: [['=', u(1), ['field', u(2), 12], 'a', 'b']] })));
    expect(one.query!.filter).toEqual(['=', ['field', 12, null], 'a', 'b']);
    const several = legacy(
      query(
        mbql({
          filters: [
            ['contains', { ...u(1), 'case-sensitive': false }, ['field', u(2), 12], 'ab'],
            ['time-interval', { ...u(3), 'include-current': true }, ['field', u(4), 13], -30, 'day'],
            ['not', u(5), ['is-null', u(6), ['field', u(7), 14]]],
            ['segment', u(8), 4],
          ],
        }),
      ),
    );
    expect(several.query!.filter).toEqual([
      'and',
      ['contains', ['field', 12, null], 'ab', { 'case-sensitive': false }],
      ['time-interval', ['field', 13, null], -30, 'day', { 'include-current': true }],
      ['not', ['is-null', ['field', 14, null]]],
      ['segment', 4],
    ]);
  });

  it('names expressions by their options and refers to them by name', () => {
    const q = legacy(
      query(
        mbql({
          expressions: [
            ['+', { ...u(1), 'lib/expression-name': 'Total' }, ['field', u(2), 12], 1],
            ['case', { ...u(3), 'lib/expression-name': 'Size' }, [[['<', u(4), ['expression', u(5), 'Total'], 50], 'small']], 'large'],
            [
              'coalesce',
              { ...u(6), 'lib/expression-name': 'D' },
              ['field', u(7), 13],
              ['value', { ...u(8), 'base-type': 'type/Integer' }, 0],
            ],
          ],
          fields: [['expression', { ...u(9), 'base-type': 'type/Float', 'temporal-unit': 'month' }, 'Total']],
        }),
      ),
    );
    expect(q.query!.expressions).toEqual({
      Total: ['+', ['field', 12, null], 1],
      Size: ['case', [[['<', ['expression', 'Total'], 50], 'small']], { default: 'large' }],
      D: ['coalesce', ['field', 13, null], ['value', 0]],
    });
    expect(q.query!.fields).toEqual([['expression', 'Total', { 'temporal-unit': 'month' }]]);
  });

  it('refers to aggregations by index, and names them with aggregation-options', () => {
    const q = legacy(
      query(
        mbql({
          aggregation: [
            ['count', u('a')],
            ['sum', { ...u('b'), name: 'total', 'display-name': 'Total' }, ['field', u(1), 12]],
            ['/', u('c'), ['sum', u('d'), ['field', u(2), 12]], ['count', u('e')]],
          ],
          breakout: [['field', u(3), 14]],
          'order-by': [
            ['desc', u(4), ['aggregation', u(5), 'uuid-b']],
            ['asc', u(6), ['field', u(7), 14]],
          ],
          limit: 10,
          page: { page: 2, items: 5 },
        }),
      ),
    );
    expect(q.query).toEqual({
      'source-table': 3,
      aggregation: [
        ['count'],
        ['aggregation-options', ['sum', ['field', 12, null]], { name: 'total', 'display-name': 'Total' }],
        ['/', ['sum', ['field', 12, null]], ['count']],
      ],
      breakout: [['field', 14, null]],
      'order-by': [
        ['desc', ['aggregation', 1]],
        ['asc', ['field', 14, null]],
      ],
      limit: 10,
      page: { page: 2, items: 5 },
    });
  });

  it('nests later stages around the first, ignoring stage metadata', () => {
    const q = legacy(
      query(
        mbql({ aggregation: [['count', u(1)]], breakout: [['field', u(2), 14]], 'lib/stage-metadata': { columns: [{ name: 'count' }] } }),
        {
          'lib/type': 'mbql.stage/mbql',
          filters: [['>', u(3), ['field', { ...u(4), 'base-type': 'type/Integer' }, 'count'], 4]],
          aggregation: [['count', u(5)]],
        },
        { 'lib/type': 'mbql.stage/mbql', limit: 1 },
      ),
    );
    expect(q.query).toEqual({
      limit: 1,
      'source-query': {
        filter: ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 4],
        aggregation: [['count']],
        'source-query': { 'source-table': 3, aggregation: [['count']], breakout: [['field', 14, null]] },
      },
    });
  });

  it('reads a saved question as source-card, and keeps parameters', () => {
    const q = legacy({
      ...query({ 'lib/type': 'mbql.stage/mbql', 'source-card': 12 }),
      parameters: [{ type: 'category', value: 'x', target: ['dimension', ['field', 1, null]] }],
    });
    expect(q.query).toEqual({ 'source-table': 'card__12' });
    expect(q.parameters).toEqual([{ type: 'category', value: 'x', target: ['dimension', ['field', 1, null]] }]);
  });

  it('converts joins: a table, a card or stages, conditions, alias, strategy and fields', () => {
    const cond = (a: number, b: number) => ['=', u(`c${a}`), ['field', u(`l${a}`), a], ['field', { ...u(`r${b}`), 'join-alias': 'J' }, b]];
    const q = legacy(
      query(
        mbql({
          joins: [
            {
              'lib/type': 'mbql/join',
              stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 1 }],
              conditions: [cond(302, 101)],
              alias: 'J',
              strategy: 'inner-join',
              fields: 'all',
            },
            {
              'lib/type': 'mbql/join',
              stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-card': 9 }],
              conditions: [cond(302, 101), cond(303, 102)],
              alias: 'C',
              fields: [['field', { ...u(8), 'join-alias': 'C' }, 105]],
            },
            {
              'lib/type': 'mbql/join',
              stages: [mbql({ 'source-table': 4, aggregation: [['count', u(9)]], breakout: [['field', u(10), 402]] })],
              conditions: [cond(303, 402)],
              alias: 'S',
              fields: 'none',
            },
          ],
        }),
      ),
    );
    expect(q.query!.joins).toEqual([
      {
        'source-table': 1,
        alias: 'J',
        strategy: 'inner-join',
        condition: ['=', ['field', 302, null], ['field', 101, { 'join-alias': 'J' }]],
        fields: 'all',
      },
      {
        'source-table': 'card__9',
        alias: 'C',
        condition: [
          'and',
          ['=', ['field', 302, null], ['field', 101, { 'join-alias': 'J' }]],
          ['=', ['field', 303, null], ['field', 102, { 'join-alias': 'J' }]],
        ],
        fields: [['field', 105, { 'join-alias': 'C' }]],
      },
      {
        'source-query': { 'source-table': 4, aggregation: [['count']], breakout: [['field', 402, null]] },
        alias: 'S',
        condition: ['=', ['field', 303, null], ['field', 402, { 'join-alias': 'J' }]],
        fields: 'none',
      },
    ]);
  });

  it('turns a native stage into a native query with its template tags', () => {
    const tags = {
      cat: { name: 'cat', 'display-name': 'Cat', type: 'dimension', dimension: ['field', 104, null], 'widget-type': 'category' },
    };
    const q = legacy({
      ...query({ 'lib/type': 'mbql.stage/native', native: 'SELECT * FROM P WHERE {{cat}}', 'template-tags': tags }),
      parameters: [],
    });
    expect(q).toEqual({
      database: 1,
      type: 'native',
      native: { query: 'SELECT * FROM P WHERE {{cat}}', 'template-tags': tags },
      parameters: [],
    });
  });

  it('accepts a field filter dimension as an MBQL 5 field ref', () => {
    const tags = {
      cat: {
        name: 'cat',
        type: 'dimension',
        dimension: ['field', { ...u(1), 'base-type': 'type/Text', 'effective-type': 'type/Text' }, 104],
        'widget-type': 'category',
      },
    };
    const q = legacy(query({ 'lib/type': 'mbql.stage/native', native: 'SELECT 1 WHERE {{cat}}', 'template-tags': tags }));
    expect(q.native!['template-tags']!.cat.dimension).toEqual(['field', 104, { 'base-type': 'type/Text' }]);
  });

  describe('clauses Metabase desugars into ones the engine runs', () => {
    const filter = (f: unknown) => legacy(query(mbql({ filters: [f] }))).query!.filter;
    const expression = (e: unknown[]) =>
      legacy(query(mbql({ expressions: [[e[0], { ...(e[1] as object), 'lib/expression-name': 'E' }, ...e.slice(2)]] }))).query!.expressions!
        .E;
    const at = (id: number) => ['field', { ...u(`f${id}`), 'base-type': 'type/DateTime', 'temporal-unit': 'month' }, id];

    it('in and not-in are = and != with several values', () => {
      expect(filter(['in', u(1), ['field', u(2), 12], 1, 2, 3])).toEqual(['=', ['field', 12, null], 1, 2, 3]);
      expect(filter(['not-in', u(1), ['field', u(2), 12], 'a', null])).toEqual(['!=', ['field', 12, null], 'a', null]);
      expect(
        filter(['or', u(1), ['in', u(2), ['field', u(3), 12], ['value', u(4), 4]], ['not-in', u(5), ['field', u(6), 12], 5, 6]]),
      ).toEqual(['or', ['=', ['field', 12, null], ['value', 4]], ['!=', ['field', 12, null], 5, 6]]);
      expect(invalid(query(mbql({ filters: [['in', u(1), ['field', u(2), 12]]] })))).toBe(
        'Invalid query: stages[0].filters[0]: expected ["in", {options}, expression, value, ...],' +
          ' got ["in",{"lib/uuid":"uuid-1"},["field",{"lib/uuid":"uuid-2"},12]].',
      );
    });

    it.each([
      ['year-of-era', 'get-year'],
      ['quarter-of-year', 'get-quarter'],
      ['month-of-year', 'get-month'],
      ['day-of-month', 'get-day'],
      ['day-of-week', 'get-day-of-week'],
      ['hour-of-day', 'get-hour'],
      ['minute-of-hour', 'get-minute'],
      ['second-of-minute', 'get-second'],
    ])('temporal-extract %s is %s', (unit, fn) => {
      expect(expression(['temporal-extract', u(1), ['field', u(2), 13], unit])).toEqual([fn, ['field', 13, null]]);
    });

    it('during is = on the column bucketed by its unit (the whole unit holding the value)', () => {
      expect(filter(['during', u(1), at(13), '2025-03-14', 'month'])).toEqual([
        '=',
        ['field', 13, { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }],
        '2025-03-14',
      ]);
      expect(filter(['during', u(1), ['field', u(2), 13], '2025-03-14T10:20:00', 'hour'])).toEqual([
        '=',
        ['field', 13, { 'temporal-unit': 'hour' }],
        '2025-03-14T10:20:00',
      ]);
    });

    it('relative-time-interval without an offset is time-interval on the unbucketed column', () => {
      expect(filter(['relative-time-interval', u(1), at(13), -30, 'day', 0, 'week'])).toEqual([
        'time-interval',
        ['field', 13, { 'base-type': 'type/DateTime' }],
        -30,
        'day',
      ]);
      expect(filter(['relative-time-interval', u(1), ['field', u(2), 13], 3, 'month', 0, 'month'])).toEqual([
        'time-interval',
        ['field', 13, null],
        3,
        'month',
      ]);
    });

    it.each([
      [
        'relative-time-interval with an offset (no shifted interval in the engine)',
        ['relative-time-interval', u(1), ['field', u(2), 13], -7, 'day', -1, 'week'],
      ],
      [
        'relative-time-interval of 0 units (an empty range, not the current one)',
        ['relative-time-interval', u(1), ['field', u(2), 13], 0, 'day', 0, 'day'],
      ],
      ['relative-time-interval over a computed date', ['relative-time-interval', u(1), ['now', u(2)], -7, 'day', 0, 'day']],
      ['during by seconds', ['during', u(1), ['field', u(2), 13], '2025-03-14T10:20:30', 'second']],
      ['during a non-string value', ['during', u(1), ['field', u(2), 13], 2025, 'year']],
      ['temporal-extract of a week of the year', ['=', u(1), ['temporal-extract', u(2), ['field', u(3), 13], 'week-of-year-iso'], 1]],
      ['temporal-extract of an ISO day of the week', ['=', u(1), ['temporal-extract', u(2), ['field', u(3), 13], 'day-of-week', 'iso'], 1]],
      ['get-day-of-week with a mode', ['=', u(1), ['get-day-of-week', u(2), ['field', u(3), 13], 'iso'], 1]],
      ['absolute-datetime of a value that is not a date', ['>', u(1), ['field', u(2), 13], ['absolute-datetime', u(3), 'soon', 'default']]],
      [
        'absolute-datetime by an extraction unit',
        ['>', u(1), ['field', u(2), 13], ['absolute-datetime', u(3), '2025-01-01', 'day-of-week']],
      ],
      [
        'relative-datetime compared with < or > (an unbounded range the engine has no relative form of)',
        ['>', u(1), ['field', u(2), 13], ['relative-datetime', u(3), -30, 'day']],
      ],
    ])('leaves %s an unknown clause', (_name, f) => {
      expect(invalid(query(mbql({ filters: [f] })))).toMatch(/^Invalid query: stages\[0\]\.filters\[0\]: unknown clause \[/);
    });

    it('absolute-datetime is its instant, truncated to its unit, as a literal with a time', () => {
      const abs = (v: string, unit: string) => filter(['>', u(1), ['field', u(2), 13], ['absolute-datetime', u(3), v, unit]]);
      expect(abs('2025-03-14T10:11:12', 'month')).toEqual(['>', ['field', 13, null], '2025-03-01 00:00:00']);
      expect(abs('2025-03-14T10:11:12', 'hour')).toEqual(['>', ['field', 13, null], '2025-03-14 10:00:00']);
      expect(abs('2025-03-14', 'default')).toEqual(['>', ['field', 13, null], '2025-03-14 00:00:00']);
      expect(abs('2025-03-12T10:00:00', 'week')).toEqual(['>', ['field', 13, null], '2025-03-09 00:00:00']);
      // An offset is applied as the engine applies it to any date literal.
      expect(abs('2025-03-14T23:30:00-02:00', 'default')).toEqual(['>', ['field', 13, null], '2025-03-15 01:30:00']);
      expect(
        filter([
          'between',
          u(1),
          at(13),
          ['absolute-datetime', u(2), '2025-01-20', 'month'],
          ['absolute-datetime', u(3), '2025-03-02', 'month'],
        ]),
      ).toEqual([
        'between',
        ['field', 13, { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }],
        '2025-01-01 00:00:00',
        '2025-03-01 00:00:00',
      ]);
    });

    describe('relative-datetime against a column bucketed by its unit (Metabase writes time-interval so)', () => {
      const col = ['field', 13, { 'base-type': 'type/DateTime' }];
      const ti = (n: number | string, unit = 'month') => ['time-interval', col, n, unit];
      const rel = (n: number | string, unit?: string) => ['relative-datetime', u(9), n, ...(unit ? [unit] : [])];

      it('= is the one bucket: time-intervals of the ones around the current bucket', () => {
        expect(filter(['=', u(1), at(13), rel(-1, 'month')])).toEqual(ti(-1));
        expect(filter(['=', u(1), at(13), rel(0, 'month')])).toEqual(ti('current'));
        expect(filter(['=', u(1), at(13), rel('current')])).toEqual(ti('current'));
        expect(filter(['=', u(1), at(13), rel(1, 'month')])).toEqual(ti(1));
        expect(filter(['=', u(1), at(13), rel(-3, 'month')])).toEqual(['and', ti(-3), ['not', ti(-2)]]);
        expect(filter(['=', u(1), at(13), rel(4, 'month')])).toEqual(['and', ti(4), ['not', ti(3)]]);
      });

      it('!= is the rest, empty columns included (as legacy !=)', () => {
        expect(filter(['!=', u(1), at(13), rel(-1, 'month')])).toEqual(['or', ['not', ti(-1)], ['is-null', col]]);
      });

      it('between spans the buckets from one to the other, the current one included when inside', () => {
        expect(filter(['between', u(1), at(13), rel(-30, 'month'), rel(-1, 'month')])).toEqual(ti(-30));
        expect(filter(['between', u(1), at(13), rel(-30, 'month'), rel(-5, 'month')])).toEqual(['and', ti(-30), ['not', ti(-4)]]);
        expect(filter(['between', u(1), at(13), rel(-2, 'month'), rel(0, 'month')])).toEqual(['or', ti(-2), ti('current')]);
        expect(filter(['between', u(1), at(13), rel(-2, 'month'), rel(3, 'month')])).toEqual(['or', ti(-2), ti('current'), ti(3)]);
        expect(filter(['between', u(1), at(13), rel(2, 'month'), rel(5, 'month')])).toEqual(['and', ti(5), ['not', ti(1)]]);
        expect(filter(['between', u(1), ['field', { ...u(2), 'temporal-unit': 'day' }, 13], rel(-7, 'day'), rel(-1, 'day')])).toEqual([
          'time-interval',
          ['field', 13, null],
          -7,
          'day',
        ]);
      });

      it.each([
        ['a column not bucketed', ['=', u(1), ['field', u(2), 13], rel(-1, 'month')]],
        ['a column bucketed by another unit', ['=', u(1), at(13), rel(-1, 'day')]],
        ['a relative-datetime on one side of between only', ['between', u(1), at(13), '2025-01-01', rel(0, 'month')]],
        ['an empty span', ['between', u(1), at(13), rel(0, 'month'), rel(-1, 'month')]],
        ['several values', ['=', u(1), at(13), rel(-1, 'month'), rel(-2, 'month')]],
      ])('is refused with %s, naming the clause', (_name, f) => {
        expect(invalid(query(mbql({ filters: [f] })))).toMatch(
          new RegExp(
            String.raw`^Invalid query: stages\[0\]\.filters\[0\]: unknown clause \[.*: a "relative-datetime" is only supported` +
              String.raw` in "=", "!=" or "between" with a column bucketed by its unit\.$`,
          ),
        );
      });
    });

    it('keeps offset as the legacy clause, in an aggregation and in arithmetic over aggregations, named as sent', () => {
      const count = ['count', u(1)];
      const q = legacy(
        query(
          mbql({
            aggregation: [
              ['offset', { ...u(2), name: 'prev', 'display-name': 'Previous' }, count, -1],
              ['-', u(3), count, ['offset', u(4), ['sum', u(5), field(12)], 2]],
            ],
            breakout: [field(13)],
          }),
        ),
      );
      expect(q.query!.aggregation).toEqual([
        ['aggregation-options', ['offset', {}, ['count'], -1], { name: 'prev', 'display-name': 'Previous' }],
        ['-', ['count'], ['offset', {}, ['sum', ['field', 12, { 'base-type': 'type/Integer' }]], 2]],
      ]);
    });

    it.each([
      ['n 0', ['offset', u(1), ['count', u(2)], 0]],
      ['n not a whole number', ['offset', u(1), ['count', u(2)], 1.5]],
      ['no n', ['offset', u(1), ['count', u(2)]]],
    ])('refuses offset with %s, naming the clause', (_name, a) => {
      expect(invalid(query(mbql({ aggregation: [a], breakout: [field(13)] })))).toMatch(
        new RegExp(
          String.raw`^Invalid query: stages\[0\]\.aggregation\[0\]: expected \["offset", \{options\}, expression, n\]` +
            ' with a whole number n other than 0',
        ),
      );
    });
  });

  it('does not modify its input', () => {
    const q = query(mbql({ filters: [['=', u(1), ['field', u(2), 12], 1]] }));
    const copy = JSON.parse(JSON.stringify(q));
    mbql5ToLegacy(q);
    expect(q).toEqual(copy);
  });

  describe('errors name the stage and the clause as sent', () => {
    it.each([
      [
        'an unknown clause',
        query(mbql({}), { 'lib/type': 'mbql.stage/mbql', filters: [['foo', u(1), 1]] }),
        'Invalid query: stages[1].filters[0]: unknown clause ["foo",{"lib/uuid":"uuid-1"},1].',
      ],
      [
        'an unknown nested clause',
        query(mbql({ filters: [['and', u(1), ['=', u(2), ['field', u(3), 1], 2], ['frob', u(4)]]] })),
        'Invalid query: stages[0].filters[0]: unknown clause ["frob",{"lib/uuid":"uuid-4"}].',
      ],
      [
        'a legacy clause inside MBQL 5',
        query(mbql({ breakout: [['field', 12, null]] })),
        'Invalid query: stages[0].breakout[0]: expected the options map second in ["field",12,null]' +
          ' (MBQL 5 clauses are ["name", {options}, ...arguments]).',
      ],
      [
        'an aggregation by an unknown uuid',
        query(mbql({ aggregation: [['count', u(1)]], 'order-by': [['asc', u(2), ['aggregation', u(3), 'nope']]] })),
        'Invalid query: stages[0].order-by[0]: no aggregation of this stage has the "lib/uuid"' +
          ' of ["aggregation",{"lib/uuid":"uuid-3"},"nope"].',
      ],
      [
        'an unknown expression',
        query(mbql({ fields: [['expression', u(1), 'X']] })),
        'Invalid query: stages[0].fields[0]: no expression of this stage is named by ["expression",{"lib/uuid":"uuid-1"},"X"].',
      ],
      [
        'an unnamed expression',
        query(mbql({ expressions: [['+', u(1), 1, 2]] })),
        'Invalid query: stages[0].expressions[0]: an expression needs its name in the "lib/expression-name" option.',
      ],
      ['no stages', { 'lib/type': 'mbql/query', database: 1, stages: [] }, 'Invalid query: stages: must be a non-empty list of stages.'],
      [
        'a source on a later stage',
        query(mbql({}), mbql({})),
        'Invalid query: stages[1]: only the first stage has a source ("source-table" or "source-card").',
      ],
      [
        'a stage over a native stage',
        query({ 'lib/type': 'mbql.stage/native', native: 'SELECT 1' }, { 'lib/type': 'mbql.stage/mbql' }),
        'Invalid query: stages[1]: a stage over a native stage is not supported: save the SQL as a question and use it as "source-card".',
      ],
      [
        'a blank native stage',
        query({ 'lib/type': 'mbql.stage/native', native: ' ' }),
        'Invalid query: stages[0].native: a native stage needs its SQL as a non-blank "native" string.',
      ],
      [
        'an unknown stage type',
        query({ 'lib/type': 'mbql.stage/what' }),
        'Invalid query: stages[0]: unknown stage type "mbql.stage/what" (expected "mbql.stage/mbql" or "mbql.stage/native").',
      ],
      ['filters not a list', query(mbql({ filters: 'x' })), 'Invalid query: stages[0].filters: must be a list, got "x".'],
      [
        'a join without conditions',
        query(mbql({ joins: [{ stages: [{ 'source-table': 1 }], alias: 'J' }] })),
        'Invalid query: stages[0].joins[0].conditions: a join needs at least one condition in "conditions".',
      ],
      [
        'an unknown clause in a join stage',
        query(mbql({ joins: [{ stages: [mbql({ filters: [['bar', u(1)]] })], alias: 'J', conditions: [['=', u(2), 1, 1]] }] })),
        'Invalid query: stages[0].joins[0].stages[0].filters[0]: unknown clause ["bar",{"lib/uuid":"uuid-1"}].',
      ],
    ])('%s', (_name, q, message) => {
      expect(invalid(q)).toBe(message);
    });

    it('names the place as sent when the legacy checks refuse the converted query', () => {
      expect(invalid(query({ 'lib/type': 'mbql.stage/mbql' }))).toBe(
        'Invalid query: stages[0]: a query needs `source-table` or `source-query`.',
      );
      expect(
        invalid(
          query(mbql({}), {
            'lib/type': 'mbql.stage/mbql',
            filters: [
              ['=', u(1), ['field', u(2), 1], 2],
              ['between', u(3), ['field', u(4), 1]],
            ],
          }),
        ),
      ).toBe('Invalid query: stages[1].filters[1]: "between" needs a value.');
      expect(invalid(query(mbql({ breakout: [['field', { ...u(1), 'temporal-unit': 'fortnight' }, 5]] })))).toBe(
        'Invalid query: stages[0].breakout[0]: unknown temporal unit "fortnight".',
      );
      expect(
        invalid(
          query(
            mbql({
              expressions: [['+', { ...u(1), 'lib/expression-name': 'E' }, ['percentile', u(2), ['field', u(3), 1], 7], 1]],
              aggregation: [['percentile', u(4), ['field', u(5), 1], 7]],
            }),
          ),
        ),
      ).toBe('Invalid query: stages[0].aggregation[0]: percentile needs a number between 0 and 1.');
      expect(
        invalid(
          query(
            mbql({ joins: [{ stages: [{ 'source-table': 1 }], alias: 'J', conditions: [['=', u(1), 1, 1]], strategy: 'sideways-join' }] }),
          ),
        ),
      ).toBe('Invalid query: stages[0].joins[0].strategy: unknown strategy "sideways-join".');
      expect(invalid(query(mbql({ 'source-card': 0 })))).toBe('Invalid query: stages[0].source-card: must be the id of a card, not 0.');
    });
  });

  it('gives every query case, sent as MBQL 5 (test/support/mbql5.ts), the normalized legacy query of the case', () => {
    const cases = ALL_CASES.filter((c) => hasMbql5Form(c.query as Record<string, unknown>));
    // The cases with a native source query: 'nested: a native source query' and the two of a native saved question.
    expect(ALL_CASES.filter((c) => !cases.includes(c)).map((c) => c.name)).toEqual([
      'nested: a native source query',
      'nested: a native saved question with its saved columns, no fields listed',
      'nested: a native saved question with its saved columns, no fields listed (MySQL quoting)',
    ]);
    for (const c of cases) {
      const sent = toMbql5({ database: 1, type: 'query', query: c.query });
      expect({ name: c.name, query: normalizeDatasetQuery(sent).query }).toEqual({
        name: c.name,
        query: normalizeInner(c.query as Record<string, unknown>),
      });
    }
  });
});
