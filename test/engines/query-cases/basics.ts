import type { QueryCase } from './types';
import { O, ORDERS, P, PEOPLE, PRODUCTS, REVIEWS, U } from './types';

export const BASIC_CASES: QueryCase[] = [
  { name: 'count of products', query: { 'source-table': PRODUCTS, aggregation: [['count']] }, expected: [[200]], columns: ['count'] },
  { name: 'count of people', query: { 'source-table': PEOPLE, aggregation: [['count']] }, expected: [[2500]] },
  { name: 'count of orders', query: { 'source-table': ORDERS, aggregation: [['count']] }, expected: [[500]] },
  { name: 'count of reviews', query: { 'source-table': REVIEWS, aggregation: [['count']] }, expected: [[1100]] },
  {
    name: 'all product fields, first 3 by id',
    query: { 'source-table': PRODUCTS, 'order-by': [['asc', P('ID')]], limit: 3 },
    expectedFrom: (d) => d.products.slice(0, 3),
    columns: ['ID', 'EAN', 'TITLE', 'CATEGORY', 'VENDOR', 'PRICE', 'RATING', 'CREATED_AT'],
  },
  {
    name: 'categories',
    query: { 'source-table': PRODUCTS, breakout: [P('CATEGORY')] },
    expected: [['Doohickey'], ['Gadget'], ['Gizmo'], ['Widget']],
  },
  {
    name: 'sum of order totals',
    query: { 'source-table': ORDERS, aggregation: [['sum', O('TOTAL')]] },
    expectedFrom: (d) => [[d.orders.reduce((s, r) => s + (r[5] as number), 0)]],
  },
  {
    name: 'people sources',
    query: { 'source-table': PEOPLE, breakout: [U('SOURCE')], aggregation: [['count']] },
    check: (rows) => expect(rows.map((r) => r[0])).toEqual(['Affiliate', 'Facebook', 'Google', 'Organic', 'Twitter']),
  },
];
