import { normalizeDatasetQuery } from '../../src/query-engine/mbql/normalize';
import {
  expressionColumns,
  implicitColumns,
  sourceColumns,
  suggestCondition,
  type TableMetadata,
} from '../../web/src/app/notebook/columns';
import { formatExpression, parseExpression, wordAt } from '../../web/src/app/notebook/expression';
import { buildFilter, describeFilter, filterInput } from '../../web/src/app/notebook/filters';
import { clause, refKey, renameExpressionRefs, updateStage, withoutDependents, type Clause } from '../../web/src/app/notebook/mbql';
import { queryUntil } from '../../web/src/app/notebook/steps';
import { buildAggregation, buildBreakout } from '../../web/src/app/notebook/summarize';
import { toMbql5 } from '../../web/src/app/notebook/to-mbql5';
import type { Mbql5Query } from '../../web/src/app/notebook/types';

/** The notebook's pure parts: what it writes must be what the server reads (normalize.ts over mbql5.ts). */
const orders: TableMetadata = {
  id: 3,
  db_id: 1,
  display_name: 'Orders',
  fields: [
    { id: 10, name: 'ID', display_name: 'ID', base_type: 'type/Integer', semantic_type: 'type/PK' },
    { id: 11, name: 'TOTAL', display_name: 'Total', base_type: 'type/Float', semantic_type: null },
    { id: 12, name: 'CREATED_AT', display_name: 'Created At', base_type: 'type/DateTime', semantic_type: null },
    { id: 13, name: 'PRODUCT_ID', display_name: 'Product ID', base_type: 'type/Integer', semantic_type: 'type/FK', fk_target_field_id: 20 },
    { id: 14, name: 'NOTE', display_name: 'Note', base_type: 'type/Text', semantic_type: null },
  ],
};
const cols = sourceColumns(orders, false);
const col = (name: string) => cols.find((c) => c.name === name)!;
const label = (c: { displayName: string }) => c.displayName;
const resolve = (n: string) => cols.find((c) => c.displayName === n)?.ref ?? null;
const strip = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(strip)
    : v && typeof v === 'object'
      ? Object.fromEntries(
          Object.entries(v)
            .filter(([k]) => k !== 'lib/uuid')
            .map(([k, x]) => [k, strip(x)]),
        )
      : v;

describe('notebook MBQL', () => {
  it('parses expressions with precedence, functions, columns and literals', () => {
    expect(strip(parseExpression('[Total] * 2 + 1', resolve))).toEqual([
      '+',
      {},
      ['*', {}, ['field', { 'base-type': 'type/Float' }, 11], 2],
      1,
    ]);
    expect(strip(parseExpression('concat([Note], " ", upper([Note]))', resolve))).toEqual([
      'concat',
      {},
      ['field', { 'base-type': 'type/Text' }, 14],
      ' ',
      ['upper', {}, ['field', { 'base-type': 'type/Text' }, 14]],
    ]);
    expect(strip(parseExpression('case([Total] > 100, "big", "small")', resolve))).toEqual([
      'case',
      {},
      [[['>', {}, ['field', { 'base-type': 'type/Float' }, 11], 100], 'big']],
      'small',
    ]);
    expect(() => parseExpression('[Nope] + 1', resolve)).toThrow('Unknown column: Nope');
    expect(() => parseExpression('[Total] +', resolve)).toThrow('Expected a value');
    expect(() => parseExpression('foo(1)', resolve)).toThrow('Unknown function foo');
    expect(() => parseExpression('Sum([Total])', resolve)).toThrow('Unknown function Sum');
    expect(strip(parseExpression('Sum([Total]) / Count', resolve, { aggregations: true }))).toEqual([
      '/',
      {},
      ['sum', {}, ['field', { 'base-type': 'type/Float' }, 11]],
      ['count', {}],
    ]);
  });

  it('formats a clause back into the text that parses to it', () => {
    const name = (ref: Clause) => cols.find((c) => c.key === refKey(ref))?.displayName ?? null;
    for (const text of [
      '[Total] * (2 + 1)',
      'concat([Note], " ", lower([Note]))',
      'case([Total] > 100, "big", "small")',
      '[Total] - ([Total] - 1)',
    ]) {
      const parsed = parseExpression(text, resolve, { aggregations: true });
      expect(formatExpression(parsed, name)).toBe(text);
    }
  });

  it('completes a column after an open bracket and a function name', () => {
    expect(wordAt('[Tot', 4)).toEqual({ kind: 'column', start: 0, prefix: 'Tot' });
    expect(wordAt('1 + con', 7)).toEqual({ kind: 'function', start: 4, prefix: 'con' });
    expect(wordAt('"con', 4)).toBeNull();
  });

  it('builds filters by column type that the server reads', () => {
    const filters = [
      buildFilter({ column: col('NOTE'), operator: 'contains', values: ['ab'] }),
      buildFilter({ column: col('TOTAL'), operator: 'between', values: ['1', '5'] }),
      buildFilter({ column: col('CREATED_AT'), operator: 'previous', values: ['12'], unit: 'month' }),
      buildFilter({ column: col('CREATED_AT'), operator: 'exclude', values: ['Sunday', 'Saturday'], unit: 'day-of-week' }),
      buildFilter({ column: col('TOTAL'), operator: 'is-empty', values: [] }),
    ];
    expect(filters.map((f) => describeFilter(f, cols, label))).toEqual([
      'Note contains ab',
      'Total is between 1 and 5',
      'Created At is in the previous 12 months',
      'Created At excludes Sunday, Saturday',
      'Total is empty',
    ]);
    expect(() => buildFilter({ column: col('TOTAL'), operator: '>', values: ['x'] })).toThrow('not a number');
    // Each reopens in the form that made it, and that form makes it again.
    for (const f of [...filters, buildFilter({ column: col('NOTE'), operator: '=', values: ['a', 'b'] })]) {
      const input = filterInput(f, cols)!;
      const again = buildFilter(input.operator === '=' ? { ...input, values: input.values[0].split(',') } : input);
      expect(strip(again)).toEqual(strip(f));
    }
    const q = updateStage(base(), { filters });
    expect(normalizeDatasetQuery(q).query!.filter).toEqual([
      'and',
      ['contains', ['field', 14, { 'base-type': 'type/Text' }], 'ab', { 'case-sensitive': false }],
      ['between', ['field', 11, { 'base-type': 'type/Float' }], 1, 5],
      ['time-interval', ['field', 12, { 'base-type': 'type/DateTime' }], -12, 'month'],
      ['!=', ['get-day-of-week', ['field', 12, { 'base-type': 'type/DateTime' }]], 1, 7],
      ['is-null', ['field', 11, { 'base-type': 'type/Float' }]],
    ]);
  });

  it('summarizes with buckets and sorts by a metric', () => {
    const count = buildAggregation('count');
    const q = updateStage(base(), {
      aggregation: [count, buildAggregation('sum', col('TOTAL'))],
      breakout: [buildBreakout(col('CREATED_AT')), buildBreakout(col('TOTAL'), { binning: 'auto' })],
      'order-by': [clause('desc', {}, clause('aggregation', {}, count[1]['lib/uuid']))],
      limit: 5,
    });
    expect(normalizeDatasetQuery(q).query).toMatchObject({
      aggregation: [['count'], ['sum', ['field', 11, { 'base-type': 'type/Float' }]]],
      breakout: [
        ['field', 12, { 'base-type': 'type/DateTime', 'temporal-unit': 'month' }],
        ['field', 11, { 'base-type': 'type/Float', binning: { strategy: 'default' } }],
      ],
      'order-by': [['desc', ['aggregation', 0]]],
      limit: 5,
    });
  });

  it('previews a step with the later steps cut off and ten rows at most', () => {
    const q = updateStage(base(), {
      filters: [buildFilter({ column: col('TOTAL'), operator: '>', values: ['1'] })],
      aggregation: [buildAggregation('count')],
      limit: 3,
    });
    expect(queryUntil(q, 'filters').stages[0]).toEqual({
      'lib/type': 'mbql.stage/mbql',
      'source-table': 3,
      filters: q.stages[0].filters,
      limit: 10,
    });
    expect(queryUntil(q, 'limit').stages[0].limit).toBe(3);
    const twoStages = { ...q, stages: [...q.stages, { 'lib/type': 'mbql.stage/mbql', filters: [], limit: 1 }] };
    expect(queryUntil(twoStages, 'filters', 10, 1).stages).toEqual([
      q.stages[0],
      { 'lib/type': 'mbql.stage/mbql', filters: [], limit: 10 },
    ]);
  });

  it('reopens legacy questions as MBQL 5 that means the same query', () => {
    const legacy = {
      database: 1,
      type: 'query',
      query: {
        'source-query': {
          source_table: 3,
          joins: [
            {
              'source-table': 4,
              alias: 'P',
              condition: ['=', ['field-id', 13], ['joined-field', 'P', ['field-id', 20]]],
              strategy: 'inner-join',
            },
          ],
          expressions: { Twice: ['*', ['field', 11, null], 2] },
          filter: ['and', ['>', ['field', 11, null], 1], ['time-interval', ['field', 12, null], -1, 'year']],
          aggregation: [['aggregation-options', ['sum', ['expression', 'Twice']], { 'display-name': 'S' }], ['count']],
          breakout: [
            ['datetime-field', ['field-id', 12], 'month'],
            ['fk->', ['field-id', 13], ['field-id', 21]],
          ],
          'order-by': [['desc', ['aggregation', 1]]],
          limit: 10,
        },
        filter: ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 2],
      },
    };
    const converted = toMbql5(legacy)!;
    expect(converted.stages).toHaveLength(2);
    expect(converted.stages[0]['source-table']).toBe(3);
    expect(normalizeDatasetQuery(converted)).toEqual(normalizeDatasetQuery(legacy));
    expect(toMbql5({ database: 1, type: 'query', query: { 'source-table': 'card__7' } })!.stages[0]['source-card']).toBe(7);
    expect(toMbql5({ database: 1, type: 'native', native: { query: 'select 1' } })).toBeNull();
    expect(
      toMbql5({ 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/native', native: 'select 1' }] }),
    ).toBeNull();
    const mbql5 = base();
    expect(toMbql5(mbql5)).toBe(mbql5);
  });

  it('offers the columns behind a foreign key and suggests the join condition from it', () => {
    const products: TableMetadata = {
      id: 4,
      db_id: 1,
      display_name: 'Products',
      fields: [
        { id: 20, name: 'ID', display_name: 'ID', base_type: 'type/Integer', semantic_type: 'type/PK' },
        { id: 21, name: 'CATEGORY', display_name: 'Category', base_type: 'type/Text', semantic_type: 'type/Category' },
      ],
    };
    const withTarget = { ...orders, fields: orders.fields.map((f) => (f.id === 13 ? { ...f, target: { id: 20, table_id: 4 } } : f)) };
    const via = implicitColumns(withTarget, [products]);
    expect(via.map((c) => [c.group, c.displayName, c.key])).toEqual([
      ['Product', 'ID', 'field:20<13'],
      ['Product', 'Category', 'field:21<13'],
    ]);
    expect(via[1].ref).toEqual(['field', { 'base-type': 'type/Text', 'source-field': 13 }, 21]);
    const joined = sourceColumns(products, false, 'Products');
    expect(suggestCondition(cols, joined)!.map((c) => c.key)).toEqual(['field:13', 'field:20@Products']);
    // A joined question's columns are named, not numbered.
    expect(sourceColumns({ ...products, id: 'card__7' }, true, 'Q')[1].ref).toEqual([
      'field',
      { 'base-type': 'type/Text', 'join-alias': 'Q' },
      'CATEGORY',
    ]);
  });

  it('drops what uses a removed join or custom column, and renames the uses of a renamed one', () => {
    const joined: Clause = ['field', { 'base-type': 'type/Text', 'join-alias': 'P' }, 21];
    const twice = parseExpression('[Total] * 2', resolve) as Clause;
    const expressions = [
      [twice[0], { ...twice[1], 'lib/expression-name': 'Twice' }, ...twice.slice(2)],
      clause('upper', { 'lib/expression-name': 'U' }, joined),
    ];
    const sum = clause('sum', {}, clause('expression', {}, 'Twice'));
    const stage = {
      expressions,
      filters: [clause('=', {}, joined, 'a'), clause('>', {}, clause('field', {}, 11), 1)],
      aggregation: [sum, clause('count', {})],
      breakout: [joined],
      'order-by': [clause('desc', {}, clause('aggregation', {}, sum[1]['lib/uuid']))],
    };
    const noJoin = withoutDependents(stage, (r) => r[1]['join-alias'] === 'P');
    expect(Object.keys(noJoin).sort()).toEqual(['breakout', 'expressions', 'filters']);
    expect((noJoin.expressions as Clause[]).map((e) => e[1]['lib/expression-name'])).toEqual(['Twice']);
    expect(noJoin.breakout).toEqual([]);
    const noTwice = withoutDependents(stage, (r) => r[0] === 'expression' && r[2] === 'Twice');
    expect((noTwice.aggregation as Clause[]).map((a) => a[0])).toEqual(['count']);
    expect(noTwice['order-by']).toEqual([]);
    expect(renameExpressionRefs(stage.aggregation, 'Twice', 'Double')[0][2]).toEqual(['expression', expect.any(Object), 'Double']);
  });

  it('guesses custom columns types from their clause', () => {
    const e = parseExpression('concat([Note], "x")', resolve) as Clause;
    const named: Clause = [e[0], { ...e[1], 'lib/expression-name': 'N' }, ...e.slice(2)];
    expect(expressionColumns([named])[0]).toMatchObject({ name: 'N', baseType: 'type/Text', key: 'expression:N' });
  });
});

function base(): Mbql5Query {
  return { 'lib/type': 'mbql/query', database: 1, stages: [{ 'lib/type': 'mbql.stage/mbql', 'source-table': 3 }] };
}
