import { QueryCompileError, type CompileOptions } from '../../src/query-engine/compile/contract';
import { ENGINES, type Engine } from '../../src/query-engine/execute/drivers/driver';
import type { InnerQuery } from '../../src/query-engine/mbql/types';
import { InvalidQueryError, validateInner } from '../../src/query-engine/mbql/validate';
import { ALL_CASES } from './query-cases';
import { caseCompiler as compilerFor } from './query-cases/compiler';
import { SNAPSHOT_FINGERPRINTS, sampleSnapshot } from './query-cases/metadata';
import { O, ORDERS, P, PEOPLE, PRODUCTS, U } from './query-cases/types';

/**
 * The SQL each dialect produces for representative queries, pinned as snapshots so that compiler changes show
 * in review; and the injection cases: hostile values only ever reach the database as bound parameters.
 */
const OPTIONS: CompileOptions = { timezone: null, now: new Date('2025-06-15T12:34:56Z') };
const meta = (engine: Engine) => sampleSnapshot(engine, null, SNAPSHOT_FINGERPRINTS);

const REPRESENTATIVE = [
  'count of products',
  'all product fields, first 3 by id',
  'sum of order totals',
  'filter = several values (IN)',
  'filter != keeps NULLs',
  'filter != several values (NOT IN)',
  'filter = NULL is IS NULL',
  'filter nested and/or/not',
  'filter between',
  'filter starts-with case-insensitive',
  'filter contains',
  'filter does-not-contain',
  'filter is-empty on text',
  'filter inside',
  'filter on an expression',
  'several aggregations by category',
  'stddev',
  'median',
  'percentile 0.9',
  'share',
  'count-where',
  'sum-where',
  'aggregation-options names and duplicate names',
  'cum-sum with two breakouts partitions by the first',
  'order by aggregation desc',
  'expression / with NULL',
  'expression concat',
  'expression case',
  'expression round',
  'expression datetime-add days',
  'expression datetime-diff years',
  'expression nested expressions referring to expressions',
  'breakout on an expression with a bound string',
  'breakout on a timestamp by week',
  'breakout on a timestamp by quarter',
  'breakout on a timestamp by week-of-year',
  'breakout on a date by month',
  'filter = a month by temporal unit',
  'time-interval last 30 days',
  'binning num-bins',
  'binning default on a coordinate is 1 degree',
  'page 3',
  'implicit join through source-field',
  'explicit left-join with all fields',
  'full join',
  'join to a source query',
  'nested: three levels',
  'nested: filter on a bucketed column of the source query',
  'time zone: breakout by day in New York',
  'time zone: cum-count by month in New York',
];

describe('compiled SQL per dialect', () => {
  it.each(REPRESENTATIVE)('%s', (name) => {
    const c = ALL_CASES.find((x) => x.name === name);
    if (!c) throw new Error(`no case ${name}`);
    const out: Record<string, unknown> = {};
    for (const engine of ENGINES) {
      try {
        const { sql, params } = compilerFor(engine).compile(c.query, meta(engine), { ...OPTIONS, timezone: c.timezone ?? null });
        out[engine] = { sql, params };
      } catch (e) {
        if (!(e instanceof QueryCompileError)) throw e;
        out[engine] = { error: e.message };
      }
    }
    expect(out).toMatchSnapshot();
  });

  it('puts clauses on their own lines when pretty', () => {
    const q: InnerQuery = {
      'source-table': ORDERS,
      breakout: [O('QUANTITY')],
      aggregation: [['count']],
      filter: ['>', O('TOTAL'), 10],
      limit: 5,
    };
    const { sql } = compilerFor('postgres').compile(q, meta('postgres'), { ...OPTIONS, pretty: true });
    expect(sql.split('\n').map((l) => l.split(' ')[0])).toEqual(['SELECT', 'FROM', 'WHERE', 'GROUP', 'ORDER', 'LIMIT']);
  });

  it('annotates columns as Metabase does', () => {
    const q: InnerQuery = {
      'source-table': ORDERS,
      breakout: [
        O('CREATED_AT', { 'temporal-unit': 'month' }),
        P('CATEGORY', { 'source-field': 303 }),
        O('TOTAL', { binning: { strategy: 'num-bins', 'num-bins': 10 } }),
      ],
      aggregation: [
        ['count'],
        ['sum', O('TOTAL')],
        ['avg', O('TOTAL')],
        ['distinct', O('USER_ID')],
        ['cum-sum', O('TOTAL')],
        ['count', O('DISCOUNT')],
      ],
    };
    const { columns } = compilerFor('sqlite').compile(q, meta('sqlite'), OPTIONS);
    expect(columns.map((c) => [c.name, c.display_name, c.source, c.base_type])).toEqual([
      ['CREATED_AT', 'Created At: Month', 'breakout', 'type/DateTime'],
      ['PRODUCTS__via__PRODUCT_ID__CATEGORY', 'Product → Category', 'breakout', 'type/Text'],
      ['TOTAL', 'Total', 'breakout', 'type/Float'],
      ['count', 'Count', 'aggregation', 'type/BigInteger'],
      ['sum', 'Sum of Total', 'aggregation', 'type/Float'],
      ['avg', 'Average of Total', 'aggregation', 'type/Float'],
      ['count_2', 'Distinct values of User ID', 'aggregation', 'type/BigInteger'],
      ['sum_2', 'Cumulative sum of Total', 'aggregation', 'type/Float'],
      ['count_3', 'Count of Discount', 'aggregation', 'type/BigInteger'],
    ]);
    expect(columns[0]).toMatchObject({ unit: 'month', id: 308, table_id: 3, field_ref: ['field', 308, { 'temporal-unit': 'month' }] });
    expect(columns[2].binning_info).toEqual({ strategy: 'num-bins', 'bin-width': 20, 'num-bins': 10, min_value: 0, max_value: 160 });
    expect(columns[3]).toMatchObject({ field_ref: ['aggregation', 0] });
  });

  it('compiles filters on real table names for native field filters', () => {
    const pg = compilerFor('postgres').compileFilter(['between', O('CREATED_AT'), '2024-01-01', '2024-01-31'], meta('postgres'), OPTIONS);
    expect(pg).toEqual({
      sql: '("public"."ORDERS"."CREATED_AT" >= CAST(? AS TIMESTAMP) AND "public"."ORDERS"."CREATED_AT" < CAST(? AS TIMESTAMP))',
      params: ['2024-01-01 00:00:00', '2024-02-01 00:00:00'],
    });
    const my = compilerFor('mysql').compileFilter(['=', P('CATEGORY'), 'Gizmo', 'Widget'], meta('mysql'), OPTIONS);
    expect(my).toEqual({ sql: '`PRODUCTS`.`CATEGORY` IN (?, ?)', params: ['Gizmo', 'Widget'] });
  });
});

describe('compile errors name the clause', () => {
  const compile =
    (q: unknown, engine: Engine = 'postgres') =>
    () =>
      compilerFor(engine).compile(q as InnerQuery, meta(engine), OPTIONS);
  it.each<[string, unknown, RegExp]>([
    ['unknown field in fields', { 'source-table': ORDERS, fields: [['field', 999, null]] }, /Unknown field 999 in "fields"/],
    ['unknown field in filter', { 'source-table': ORDERS, filter: ['=', ['field', 999, null], 1] }, /Unknown field 999 in "filter"/],
    ['unknown table', { 'source-table': 99 }, /Unknown table 99 in "source-table"/],
    ['card source not resolved', { 'source-table': 'card__12' }, /should have been resolved/],
    ['segment not expanded', { 'source-table': ORDERS, filter: ['segment', 3] }, /Segment 3 should have been expanded/],
    ['metric not expanded', { 'source-table': ORDERS, aggregation: [['metric', 3]] }, /Metric 3 should have been expanded.*"aggregation"/],
    ['unknown aggregation', { 'source-table': ORDERS, aggregation: [['mode', O('TOTAL')]] }, /Unknown aggregation "mode" in "aggregation"/],
    ['unknown filter', { 'source-table': ORDERS, filter: ['like', O('TOTAL'), 1] }, /Unknown clause "like" in "filter"/],
    ['unknown expression', { 'source-table': ORDERS, fields: [['expression', 'nope']] }, /Unknown expression "nope" in "fields"/],
    [
      'self-referring expression',
      { 'source-table': ORDERS, expressions: { a: ['+', ['expression', 'a'], 1] }, fields: [['expression', 'a']] },
      /refers to itself/,
    ],
    [
      'unknown join alias',
      { 'source-table': ORDERS, fields: [P('ID', { 'join-alias': 'Nope' })] },
      /Unknown join alias "Nope" in "fields"/,
    ],
    ['bad limit', { 'source-table': ORDERS, limit: 1.5 }, /"limit" must be a whole number/],
    ['limit as a string', { 'source-table': ORDERS, limit: '5; DROP TABLE x' }, /"limit" must be a whole number/],
    ['bad page', { 'source-table': ORDERS, page: { page: 0, items: 10 } }, /"page"/],
    [
      'bad num-bins',
      {
        'source-table': ORDERS,
        breakout: [O('TOTAL', { binning: { strategy: 'num-bins', 'num-bins': 'x' as never } })],
        aggregation: [['count']],
      },
      /num-bins must be a whole number/,
    ],
    [
      'binning without fingerprint',
      { 'source-table': ORDERS, breakout: [O('TAX', { binning: { strategy: 'default' } })], aggregation: [['count']] },
      /no fingerprint/,
    ],
    [
      'bucketing a number',
      { 'source-table': ORDERS, breakout: [O('TOTAL', { 'temporal-unit': 'month' })], aggregation: [['count']] },
      /not a date or time/,
    ],
    ['bad date', { 'source-table': ORDERS, filter: ['>', O('CREATED_AT'), 'yesterday-ish'] }, /Invalid date "yesterday-ish" in "filter"/],
    ['object as a value', { 'source-table': ORDERS, filter: ['=', O('TOTAL'), { $gt: 1 }] }, /Invalid value .* in "filter"/],
    ['array as a value', { 'source-table': ORDERS, filter: ['=', O('TOTAL'), [1, 2]] }, /Invalid expression|Invalid value/],
    [
      'NaN in an expression',
      { 'source-table': ORDERS, expressions: { x: ['+', O('TOTAL'), Number.NaN] }, fields: [['expression', 'x']] },
      /finite number/,
    ],
    [
      'percentile out of range',
      { 'source-table': ORDERS, aggregation: [['percentile', O('TOTAL'), 2]] },
      /percentile needs a number from 0 to 1/,
    ],
    [
      'order by an unknown aggregation',
      { 'source-table': ORDERS, aggregation: [['count']], 'order-by': [['desc', ['aggregation', 3]]] },
      /Unknown aggregation 3 in "order-by"/,
    ],
    [
      'unknown column of a source query',
      { 'source-query': { 'source-table': ORDERS, fields: [O('ID')] }, fields: [['field', 'TOTAL', { 'base-type': 'type/Float' }]] },
      /Unknown column "TOTAL" of the source query in "fields"/,
    ],
    ['field of another table', { 'source-table': ORDERS, fields: [U('NAME')] }, /not a column of the source table "ORDERS" in "fields"/],
  ])('%s', (_name, q, message) => {
    expect(compile(q)).toThrow(QueryCompileError);
    expect(compile(q)).toThrow(message);
  });

  // The shape of a query is validate.ts's to check (the query sent and every saved query spliced in): the compiler relies on it.
  it.each<[string, unknown, RegExp]>([
    [
      'duplicate join alias',
      {
        'source-table': ORDERS,
        joins: [
          { alias: 'A', 'source-table': PRODUCTS, condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'A' })] },
          { alias: 'A', 'source-table': PRODUCTS, condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'A' })] },
        ],
      },
      /Duplicate join alias "A"/,
    ],
  ])('%s (validate.ts)', (_name, q, message) => {
    const check = () => validateInner(q as InnerQuery, 'query');
    expect(check).toThrow(InvalidQueryError);
    expect(check).toThrow(message);
  });

  it('refuses FULL JOIN on MySQL, naming the join', () => {
    const q: InnerQuery = {
      'source-table': ORDERS,
      joins: [
        { alias: 'P', 'source-table': PRODUCTS, strategy: 'full-join', condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'P' })] },
      ],
    };
    expect(compile(q, 'mysql')).toThrow('MySQL/MariaDB has no FULL JOIN (join "P") in "joins".');
  });
});

const HOSTILE = [
  "'; DROP TABLE x; --",
  '") OR 1=1 --',
  '`) OR 1=1 --',
  "\\'; SELECT 1; --",
  '\\',
  '%_*?[',
  '?',
  '$1',
  '/* comment */',
  'Zürich 東京 🎉',
  "O'Brien",
];

describe('injection', () => {
  const values = (q: InnerQuery) => JSON.stringify(q);
  const queriesFor = (v: string): InnerQuery[] => [
    { 'source-table': PEOPLE, filter: ['=', U('NAME'), v] },
    { 'source-table': PEOPLE, filter: ['!=', U('NAME'), v, 'x'] },
    { 'source-table': PEOPLE, filter: ['contains', U('NAME'), v, { 'case-sensitive': false }] },
    { 'source-table': PEOPLE, filter: ['starts-with', U('NAME'), v] },
    { 'source-table': PEOPLE, filter: ['does-not-contain', U('NAME'), v] },
    { 'source-table': PEOPLE, expressions: { e: ['concat', U('NAME'), v] }, fields: [['expression', 'e']] },
    {
      'source-table': PEOPLE,
      expressions: { e: ['case', [[['=', U('STATE'), v], v]], { default: v }] },
      breakout: [['expression', 'e']],
      aggregation: [['count']],
    },
    { 'source-table': PEOPLE, aggregation: [['count-where', ['ends-with', U('EMAIL'), v]]] },
    { 'source-table': PEOPLE, filter: ['between', U('ZIP'), v, v] },
  ];

  it.each(ENGINES)('binds hostile values on %s', (engine) => {
    for (const v of HOSTILE) {
      for (const q of queriesFor(v)) {
        const { sql, params } = compilerFor(engine).compile(q, meta(engine), OPTIONS);
        if (v.length > 1) expect(sql).not.toContain(v);
        expect(sql).not.toMatch(/DROP|OR 1=1|SELECT 1|Zürich|O'Brien|\$1|comment/);
        expect(sql.split('?').length - 1).toBe(params.length);
        expect(
          params.some(
            (p) =>
              typeof p === 'string' &&
              (p.includes(v) || p.includes(v.replace(/[\\%_]/g, (c) => `\\${c}`)) || p.includes(v.replace(/[*?[]/g, (c) => `[${c}]`))),
          ),
        ).toBe(true);
      }
    }
    void values;
  });

  it.each(ENGINES)('binds numbers given as strings and keeps them strings on %s', (engine) => {
    const { sql, params } = compilerFor(engine).compile(
      { 'source-table': ORDERS, filter: ['>', O('TOTAL'), '10 OR 1=1'] },
      meta(engine),
      OPTIONS,
    );
    expect(sql).not.toContain('1=1');
    expect(params).toEqual(['10 OR 1=1']);
  });

  it.each(ENGINES)('rejects objects and arrays in value positions on %s', (engine) => {
    for (const bad of [{ toString: 'x' }, { sql: 'DROP' }, [["'; DROP", 1]], () => 1]) {
      expect(() =>
        compilerFor(engine).compile({ 'source-table': ORDERS, filter: ['=', O('TOTAL'), bad as never] }, meta(engine), OPTIONS),
      ).toThrow(QueryCompileError);
    }
    expect(() => compilerFor(engine).compile({ 'source-table': ORDERS, limit: '1; DROP TABLE x' as never }, meta(engine), OPTIONS)).toThrow(
      QueryCompileError,
    );
    expect(() =>
      compilerFor(engine).compile(
        { 'source-table': ORDERS, breakout: [O('TOTAL', { binning: { strategy: 'bin-width', 'bin-width': '1) OR (1' as never } })] },
        meta(engine),
        OPTIONS,
      ),
    ).toThrow(QueryCompileError);
    expect(() =>
      compilerFor(engine).compile(
        {
          'source-table': ORDERS,
          expressions: { x: ['datetime-add', O('CREATED_AT'), "1 day'); DROP TABLE x; --", 'day'] },
          fields: [['expression', 'x']],
        },
        meta(engine),
        OPTIONS,
      ),
    ).toThrow(QueryCompileError);
    expect(() =>
      compilerFor(engine).compile(
        { 'source-table': ORDERS, filter: ['time-interval', O('CREATED_AT'), '-30; DROP', 'day'] },
        meta(engine),
        OPTIONS,
      ),
    ).toThrow(QueryCompileError);
  });

  const HOSTILE_NAMES = ['x" FROM y; --', 'x` FROM y; --', 'a"b`c', "it's", 'Zürich 東京'];

  it.each(ENGINES)('quotes hostile column names and join aliases on %s', (engine) => {
    const compiler = compilerFor(engine);
    const q = (id: string) => compiler.quoteIdent(id);
    for (const name of HOSTILE_NAMES) {
      const query: InnerQuery = {
        'source-query': { 'source-table': ORDERS, aggregation: [['aggregation-options', ['count'], { name }]], breakout: [O('USER_ID')] },
        joins: [
          {
            alias: name,
            'source-table': PEOPLE,
            fields: [U('NAME', { 'join-alias': name })],
            condition: ['=', ['field', 'USER_ID', { 'base-type': 'type/Integer' }], U('ID', { 'join-alias': name })],
          },
        ],
        fields: [['field', name, { 'base-type': 'type/Integer' }]],
        filter: ['>', ['field', name, { 'base-type': 'type/Integer' }], 1],
      };
      const { sql, params } = compiler.compile(query, meta(engine), OPTIONS);
      expect(params).toEqual([1]);
      const stripped = sql
        .split(q(name))
        .join('')
        .split(q(`${name}__NAME`))
        .join('');
      // Once the quoted forms are removed, nothing of the hostile name is left.
      expect(stripped).not.toContain('FROM y');
      expect(stripped).not.toContain("it's");
      expect(stripped).not.toContain('Zürich');
    }
    expect(q('a"b')).toBe(engine === 'mysql' ? '`a"b`' : '"a""b"');
    expect(q('a`b')).toBe(engine === 'mysql' ? '`a``b`' : '"a`b"');
    expect(() => q('a\u0000b')).toThrow(QueryCompileError);
  });
});
