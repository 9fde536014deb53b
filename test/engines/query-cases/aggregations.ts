import type { QueryCase } from './types';
import { O, ORDERS, P, PRODUCTS, R, REVIEWS, U, PEOPLE } from './types';

const nums = (rows: unknown[][], i: number) => rows.map((r) => r[i]).filter((x): x is number => typeof x === 'number');
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const avg = (xs: number[]) => sum(xs) / xs.length;
const variance = (xs: number[]) => avg(xs.map((x) => x * x)) - avg(xs) ** 2;
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  return lo + 1 < s.length ? s[lo] + (s[lo + 1] - s[lo]) * (pos - lo) : s[lo];
}

export const AGGREGATION_CASES: QueryCase[] = [
  {
    name: 'count of a field skips NULLs',
    query: { 'source-table': ORDERS, aggregation: [['count', O('DISCOUNT')]] },
    expectedFrom: (d) => [[nums(d.orders, 6).length]],
    columns: ['count'],
  },
  {
    name: 'sum',
    query: { 'source-table': ORDERS, aggregation: [['sum', O('SUBTOTAL')]] },
    expectedFrom: (d) => [[sum(nums(d.orders, 3))]],
    columns: ['sum'],
  },
  {
    name: 'sum of integers',
    query: { 'source-table': ORDERS, aggregation: [['sum', O('QUANTITY')]] },
    expectedFrom: (d) => [[sum(nums(d.orders, 8))]],
  },
  {
    name: 'avg',
    query: { 'source-table': PRODUCTS, aggregation: [['avg', P('PRICE')]] },
    expectedFrom: (d) => [[avg(nums(d.products, 5))]],
    columns: ['avg'],
  },
  {
    name: 'avg of integers',
    query: { 'source-table': ORDERS, aggregation: [['avg', O('QUANTITY')]] },
    expectedFrom: (d) => [[avg(nums(d.orders, 8))]],
  },
  {
    name: 'distinct',
    query: { 'source-table': ORDERS, aggregation: [['distinct', O('PRODUCT_ID')]] },
    expectedFrom: (d) => [[new Set(d.orders.map((r) => r[2])).size]],
  },
  {
    name: 'min',
    query: { 'source-table': PRODUCTS, aggregation: [['min', P('PRICE')]] },
    expectedFrom: (d) => [[Math.min(...nums(d.products, 5))]],
  },
  {
    name: 'max',
    query: { 'source-table': PRODUCTS, aggregation: [['max', P('PRICE')]] },
    expectedFrom: (d) => [[Math.max(...nums(d.products, 5))]],
  },
  {
    name: 'min and max of a timestamp',
    query: {
      'source-table': ORDERS,
      aggregation: [
        ['min', O('CREATED_AT')],
        ['max', O('CREATED_AT')],
      ],
    },
    expectedFrom: (d) => {
      const ts = d.orders.map((r) => r[7] as string).sort();
      return [[ts[0], ts[ts.length - 1]]];
    },
  },
  {
    name: 'min of a date',
    query: { 'source-table': PEOPLE, aggregation: [['min', U('BIRTH_DATE')]] },
    expectedFrom: (d) => [[d.people.map((r) => r[9] as string).sort()[0]]],
  },
  {
    name: 'stddev',
    query: { 'source-table': PRODUCTS, aggregation: [['stddev', P('PRICE')]] },
    expectedFrom: (d) => [[Math.sqrt(variance(nums(d.products, 5)))]],
  },
  {
    name: 'var',
    query: { 'source-table': PRODUCTS, aggregation: [['var', P('RATING')]] },
    expectedFrom: (d) => [[variance(nums(d.products, 6))]],
  },
  {
    name: 'median',
    query: { 'source-table': PRODUCTS, aggregation: [['median', P('PRICE')]] },
    expectedFrom: (d) => [[percentile(nums(d.products, 5), 0.5)]],
  },
  {
    name: 'percentile 0.9',
    query: { 'source-table': ORDERS, aggregation: [['percentile', O('TOTAL'), 0.9]] },
    expectedFrom: (d) => [[percentile(nums(d.orders, 5), 0.9)]],
  },
  {
    name: 'median by category',
    query: { 'source-table': PRODUCTS, breakout: [P('CATEGORY')], aggregation: [['median', P('RATING')]] },

    expectedFrom: (d) =>
      ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [
        c,
        percentile(
          nums(
            d.products.filter((r) => r[3] === c),
            6,
          ),
          0.5,
        ),
      ]),
  },
  {
    name: 'percentile skips NULLs',
    query: { 'source-table': ORDERS, aggregation: [['percentile', O('DISCOUNT'), 0.25]] },
    expectedFrom: (d) => [[percentile(nums(d.orders, 6), 0.25)]],
  },
  {
    name: 'median of integers per rating',
    query: {
      'source-table': REVIEWS,
      breakout: [R('RATING')],
      aggregation: [
        ['median', R('PRODUCT_ID')],
        ['percentile', R('PRODUCT_ID'), 0],
      ],
    },
    expectedFrom: (d) =>
      [1, 2, 3, 4, 5]
        .filter((k) => d.reviews.some((r) => r[3] === k))
        .map((k) => {
          const xs = d.reviews.filter((r) => r[3] === k).map((r) => r[1] as number);
          return [k, percentile(xs, 0.5), Math.min(...xs)];
        }),
  },
  {
    name: 'median of nothing is NULL',
    query: { 'source-table': ORDERS, aggregation: [['median', O('TOTAL')]], filter: ['<', O('TOTAL'), 0] },
    expected: [[null]],
  },
  {
    name: 'share',
    query: { 'source-table': PRODUCTS, aggregation: [['share', ['=', P('CATEGORY'), 'Widget']]] },
    expectedFrom: (d) => [[d.products.filter((r) => r[3] === 'Widget').length / 200]],
    columns: ['share'],
  },
  {
    name: 'count-where',
    query: { 'source-table': ORDERS, aggregation: [['count-where', ['>', O('TOTAL'), 100]]] },
    expectedFrom: (d) => [[d.orders.filter((r) => (r[5] as number) > 100).length]],
    columns: ['count-where'],
  },
  {
    name: 'sum-where',
    query: { 'source-table': ORDERS, aggregation: [['sum-where', O('TOTAL'), ['not-null', O('DISCOUNT')]]] },
    expectedFrom: (d) => [[sum(d.orders.filter((r) => r[6] !== null).map((r) => r[5] as number))]],
  },
  {
    name: 'aggregation-options names and duplicate names',
    query: {
      'source-table': ORDERS,
      aggregation: [
        ['count'],
        ['count'],
        ['sum', O('TOTAL')],
        ['aggregation-options', ['sum', O('TAX')], { name: 'tax_total', 'display-name': 'Tax' }],
        ['sum', O('TAX')],
      ],
    },
    columns: ['count', 'count_2', 'sum', 'tax_total', 'sum_2'],
    expectedFrom: (d) => [[500, 500, sum(nums(d.orders, 5)), sum(nums(d.orders, 4)), sum(nums(d.orders, 4))]],
  },
  {
    name: 'count by category',
    query: { 'source-table': PRODUCTS, breakout: [P('CATEGORY')], aggregation: [['count']] },
    expectedFrom: (d) => ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [c, d.products.filter((r) => r[3] === c).length]),
  },
  {
    name: 'several aggregations by category',
    query: {
      'source-table': PRODUCTS,
      breakout: [P('CATEGORY')],
      aggregation: [['count'], ['sum', P('PRICE')], ['avg', P('RATING')], ['min', P('PRICE')], ['max', P('PRICE')]],
    },
    columns: ['CATEGORY', 'count', 'sum', 'avg', 'min', 'max'],
  },
  {
    name: 'cum-count by quantity',
    query: { 'source-table': ORDERS, breakout: [O('QUANTITY')], aggregation: [['cum-count']] },
    check: (rows) => {
      expect(rows[rows.length - 1][1]).toBe(500);
      for (let i = 1; i < rows.length; i++) expect(rows[i][1] as number).toBeGreaterThanOrEqual(rows[i - 1][1] as number);
    },
  },
  {
    name: 'cum-sum by category',
    query: { 'source-table': PRODUCTS, breakout: [P('CATEGORY')], aggregation: [['cum-sum', P('PRICE')]] },
    columns: ['CATEGORY', 'sum'],
    expectedFrom: (d) => {
      let acc = 0;
      return ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [
        c,
        (acc += sum(d.products.filter((r) => r[3] === c).map((r) => r[5] as number))),
      ]);
    },
  },
  {
    name: 'cum-sum with two breakouts partitions by the first',
    query: {
      'source-table': ORDERS,
      breakout: [O('PRODUCT_ID'), O('QUANTITY')],
      aggregation: [['cum-sum', O('QUANTITY')]],
      filter: ['<', O('PRODUCT_ID'), 5],
    },
  },
  { name: 'cum-count without breakout', query: { 'source-table': ORDERS, aggregation: [['cum-count']] }, expected: [[500]] },
  {
    name: 'aggregation on an expression',
    query: { 'source-table': ORDERS, expressions: { net: ['-', O('TOTAL'), O('TAX')] }, aggregation: [['sum', ['expression', 'net']]] },
    expectedFrom: (d) => [[sum(d.orders.map((r) => (r[5] as number) - (r[4] as number)))]],
  },
  {
    name: 'aggregation of an inline expression',
    query: { 'source-table': ORDERS, aggregation: [['sum', ['*', O('QUANTITY'), 2]]] },
    expectedFrom: (d) => [[2 * sum(nums(d.orders, 8))]],
  },
  {
    name: 'order by aggregation desc',
    query: {
      'source-table': REVIEWS,
      breakout: [R('RATING')],
      aggregation: [['count']],
      'order-by': [
        ['desc', ['aggregation', 0]],
        ['asc', R('RATING')],
      ],
    },
    check: (rows) => {
      for (let i = 1; i < rows.length; i++) expect(rows[i][1] as number).toBeLessThanOrEqual(rows[i - 1][1] as number);
    },
  },
  {
    name: 'breakout on a nullable column',
    query: { 'source-table': ORDERS, breakout: [O('DISCOUNT')], aggregation: [['count']], filter: ['<', O('ID'), 60] },
    unordered: true,
  },
  {
    name: 'aggregation with a filter that matches nothing',
    query: { 'source-table': ORDERS, aggregation: [['count'], ['sum', O('TOTAL')], ['avg', O('TOTAL')]], filter: ['<', O('TOTAL'), -1] },
    expected: [[0, null, null]],
  },
  {
    name: 'share with no rows is NULL',
    query: { 'source-table': ORDERS, aggregation: [['share', ['>', O('TOTAL'), 0]]], filter: ['<', O('TOTAL'), -1] },
    expected: [[null]],
  },
];
