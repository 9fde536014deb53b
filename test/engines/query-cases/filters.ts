import type { Filter, InnerQuery } from '../../../src/query-engine/mbql/types';
import type { QueryCase } from './types';
import { O, ORDERS, P, PEOPLE, PRODUCTS, U } from './types';

const countWhere = (table: number, filter: Filter): InnerQuery => ({ 'source-table': table, aggregation: [['count']], filter });
const products = (d: { products: unknown[][] }, pred: (r: unknown[]) => boolean) => [[d.products.filter(pred).length]];
const orders = (d: { orders: unknown[][] }, pred: (r: unknown[]) => boolean) => [[d.orders.filter(pred).length]];
const str = (x: unknown) => (typeof x === 'string' ? x : '');

export const FILTER_CASES: QueryCase[] = [
  {
    name: 'filter =',
    query: countWhere(PRODUCTS, ['=', P('CATEGORY'), 'Gizmo']),
    expectedFrom: (d) => products(d, (r) => r[3] === 'Gizmo'),
  },
  {
    name: 'filter = several values (IN)',
    query: countWhere(PRODUCTS, ['=', P('CATEGORY'), 'Gizmo', 'Widget']),
    expectedFrom: (d) => products(d, (r) => r[3] === 'Gizmo' || r[3] === 'Widget'),
  },
  {
    name: 'filter !=',
    query: countWhere(PRODUCTS, ['!=', P('CATEGORY'), 'Gizmo']),
    expectedFrom: (d) => products(d, (r) => r[3] !== 'Gizmo'),
  },
  {
    name: 'filter != several values (NOT IN)',
    query: countWhere(PRODUCTS, ['!=', P('CATEGORY'), 'Gizmo', 'Widget', 'Gadget']),
    expectedFrom: (d) => products(d, (r) => r[3] === 'Doohickey'),
  },
  { name: 'filter != keeps NULLs', query: countWhere(ORDERS, ['!=', O('DISCOUNT'), 5]), expectedFrom: (d) => orders(d, (r) => r[6] !== 5) },
  {
    name: 'filter = NULL is IS NULL',
    query: countWhere(ORDERS, ['=', O('DISCOUNT'), null]),
    expectedFrom: (d) => orders(d, (r) => r[6] === null),
  },
  {
    name: 'filter != NULL is NOT NULL',
    query: countWhere(ORDERS, ['!=', O('DISCOUNT'), null]),
    expectedFrom: (d) => orders(d, (r) => r[6] !== null),
  },
  { name: 'filter = number', query: countWhere(ORDERS, ['=', O('QUANTITY'), 3]), expectedFrom: (d) => orders(d, (r) => r[8] === 3) },
  {
    name: 'filter = number given as a string',
    query: countWhere(ORDERS, ['=', O('QUANTITY'), '3']),
    expectedFrom: (d) => orders(d, (r) => r[8] === 3),
  },
  { name: 'filter = id', query: countWhere(ORDERS, ['=', O('ID'), 1, 2, 3, 999999]), expected: [[3]] },
  { name: 'filter <', query: countWhere(ORDERS, ['<', O('TOTAL'), 50]), expectedFrom: (d) => orders(d, (r) => (r[5] as number) < 50) },
  { name: 'filter >', query: countWhere(ORDERS, ['>', O('TOTAL'), 100]), expectedFrom: (d) => orders(d, (r) => (r[5] as number) > 100) },
  { name: 'filter <=', query: countWhere(ORDERS, ['<=', O('QUANTITY'), 2]), expectedFrom: (d) => orders(d, (r) => (r[8] as number) <= 2) },
  { name: 'filter >=', query: countWhere(ORDERS, ['>=', O('QUANTITY'), 5]), expectedFrom: (d) => orders(d, (r) => (r[8] as number) >= 5) },
  {
    name: 'filter between',
    query: countWhere(PRODUCTS, ['between', P('PRICE'), 20, 40]),
    expectedFrom: (d) => products(d, (r) => (r[5] as number) >= 20 && (r[5] as number) <= 40),
  },
  {
    name: 'filter and',
    query: countWhere(PRODUCTS, ['and', ['=', P('CATEGORY'), 'Gizmo'], ['>', P('PRICE'), 50]]),
    expectedFrom: (d) => products(d, (r) => r[3] === 'Gizmo' && (r[5] as number) > 50),
  },
  {
    name: 'filter or',
    query: countWhere(PRODUCTS, ['or', ['=', P('CATEGORY'), 'Gizmo'], ['>', P('PRICE'), 90]]),
    expectedFrom: (d) => products(d, (r) => r[3] === 'Gizmo' || (r[5] as number) > 90),
  },
  {
    name: 'filter not',
    query: countWhere(PRODUCTS, ['not', ['=', P('CATEGORY'), 'Gizmo']]),
    expectedFrom: (d) => products(d, (r) => r[3] !== 'Gizmo'),
  },
  {
    name: 'filter nested and/or/not',
    query: countWhere(PRODUCTS, [
      'and',
      ['or', ['=', P('CATEGORY'), 'Gizmo'], ['=', P('CATEGORY'), 'Widget']],
      ['not', ['<', P('RATING'), 4]],
    ]),
    expectedFrom: (d) => products(d, (r) => (r[3] === 'Gizmo' || r[3] === 'Widget') && !((r[6] as number) < 4)),
  },
  {
    name: 'filter starts-with',
    query: countWhere(PRODUCTS, ['starts-with', P('TITLE'), 'Awesome']),
    expectedFrom: (d) => products(d, (r) => str(r[2]).startsWith('Awesome')),
  },
  {
    name: 'filter starts-with is case-sensitive by default',
    query: countWhere(PRODUCTS, ['starts-with', P('TITLE'), 'awesome']),
    expectedFrom: (d) => products(d, (r) => str(r[2]).startsWith('awesome')),
  },
  {
    name: 'filter starts-with case-insensitive',
    query: countWhere(PRODUCTS, ['starts-with', P('TITLE'), 'awesome', { 'case-sensitive': false }]),
    expectedFrom: (d) => products(d, (r) => str(r[2]).toLowerCase().startsWith('awesome')),
  },
  {
    name: 'filter ends-with',
    query: countWhere(PRODUCTS, ['ends-with', P('TITLE'), 'Hat']),
    expectedFrom: (d) => products(d, (r) => str(r[2]).endsWith('Hat')),
  },
  {
    name: 'filter ends-with case-insensitive',
    query: countWhere(PRODUCTS, ['ends-with', P('TITLE'), 'HAT', { 'case-sensitive': false }]),
    expectedFrom: (d) => products(d, (r) => str(r[2]).toLowerCase().endsWith('hat')),
  },
  {
    name: 'filter contains',
    query: countWhere(PEOPLE, ['contains', U('EMAIL'), 'gmail']),
    expectedFrom: (d) => [[d.people.filter((r) => str(r[2]).includes('gmail')).length]],
  },
  {
    name: 'filter contains case-insensitive',
    query: countWhere(PEOPLE, ['contains', U('NAME'), 'AN', { 'case-sensitive': false }]),
    expectedFrom: (d) => [[d.people.filter((r) => str(r[4]).toLowerCase().includes('an')).length]],
  },
  {
    name: 'filter contains case-sensitive upper',
    query: countWhere(PEOPLE, ['contains', U('NAME'), 'An']),
    expectedFrom: (d) => [[d.people.filter((r) => str(r[4]).includes('An')).length]],
  },
  {
    name: 'filter does-not-contain',
    query: countWhere(PEOPLE, ['does-not-contain', U('EMAIL'), 'gmail']),
    expectedFrom: (d) => [[d.people.filter((r) => !str(r[2]).includes('gmail')).length]],
  },
  { name: 'filter contains % literally', query: countWhere(PRODUCTS, ['contains', P('TITLE'), '%']), expected: [[0]] },
  { name: 'filter contains _ literally', query: countWhere(PRODUCTS, ['contains', P('TITLE'), '_']), expected: [[0]] },
  { name: 'filter contains backslash', query: countWhere(PRODUCTS, ['contains', P('TITLE'), '\\']), expected: [[0]] },
  { name: 'filter contains glob characters', query: countWhere(PRODUCTS, ['contains', P('TITLE'), '*?[']), expected: [[0]] },
  { name: 'filter = unicode', query: countWhere(PRODUCTS, ['=', P('CATEGORY'), 'Gizmö 東京 🎉']), expected: [[0]] },
  { name: 'filter = hostile string', query: countWhere(PRODUCTS, ['=', P('CATEGORY'), "'; DROP TABLE PRODUCTS; --"]), expected: [[0]] },
  { name: 'filter is-null', query: countWhere(ORDERS, ['is-null', O('DISCOUNT')]), expectedFrom: (d) => orders(d, (r) => r[6] === null) },
  { name: 'filter not-null', query: countWhere(ORDERS, ['not-null', O('DISCOUNT')]), expectedFrom: (d) => orders(d, (r) => r[6] !== null) },
  {
    name: 'filter is-empty on text',
    query: countWhere(PRODUCTS, ['is-empty', P('VENDOR')]),
    expectedFrom: (d) => products(d, (r) => r[4] === null || r[4] === ''),
  },
  {
    name: 'filter not-empty on text',
    query: countWhere(PRODUCTS, ['not-empty', P('VENDOR')]),
    expectedFrom: (d) => products(d, (r) => r[4] !== null && r[4] !== ''),
  },
  {
    name: 'filter is-empty on a number',
    query: countWhere(ORDERS, ['is-empty', O('DISCOUNT')]),
    expectedFrom: (d) => orders(d, (r) => r[6] === null),
  },
  {
    name: 'filter inside',
    query: countWhere(PEOPLE, ['inside', U('LATITUDE'), U('LONGITUDE'), 45, -110, 35, -90]),
    expectedFrom: (d) => [
      [
        d.people.filter((r) => (r[11] as number) >= 35 && (r[11] as number) <= 45 && (r[6] as number) >= -110 && (r[6] as number) <= -90)
          .length,
      ],
    ],
  },
  {
    name: 'filter on an expression',
    query: {
      'source-table': ORDERS,
      expressions: { margin: ['-', O('TOTAL'), O('SUBTOTAL')] },
      aggregation: [['count']],
      filter: ['>', ['expression', 'margin'], 5],
    },
    expectedFrom: (d) => orders(d, (r) => (r[5] as number) - (r[3] as number) > 5),
  },
  {
    name: 'filter comparing two columns',
    query: countWhere(ORDERS, ['>', O('TAX'), O('DISCOUNT')]),
    expectedFrom: (d) => orders(d, (r) => r[6] !== null && (r[4] as number) > (r[6] as number)),
  },
];
