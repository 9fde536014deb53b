import type { Expr } from '../../../src/query-engine/mbql/types';
import type { QueryCase } from './types';
import { O, ORDERS, P, PRODUCTS, U, PEOPLE } from './types';

/** The expression over the first rows (by ID) of a table. */
function exprCase(
  name: string,
  table: number,
  expr: Expr,
  idField = table === ORDERS ? O('ID') : table === PEOPLE ? U('ID') : P('ID'),
  extra: Partial<QueryCase> = {},
): QueryCase {
  return {
    name: `expression ${name}`,
    query: {
      'source-table': table,
      expressions: { x: expr },
      fields: [idField, ['expression', 'x']],
      'order-by': [['asc', idField]],
      limit: 5,
    },
    ...extra,
  };
}
const rows = <T>(xs: T[][], f: (r: T[]) => unknown) => xs.slice(0, 5).map((r) => [r[0], f(r)]);
type N = number;

export const EXPRESSION_CASES: QueryCase[] = [
  exprCase('+', ORDERS, ['+', O('SUBTOTAL'), O('TAX')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[3] as N) + (r[4] as N)),
  }),
  exprCase('- with a constant', ORDERS, ['-', O('TOTAL'), 10], undefined, { expectedFrom: (d) => rows(d.orders, (r) => (r[5] as N) - 10) }),
  exprCase('*', ORDERS, ['*', O('QUANTITY'), O('SUBTOTAL')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[8] as N) * (r[3] as N)),
  }),
  exprCase('/ is float division', ORDERS, ['/', O('QUANTITY'), 4], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[8] as N) / 4),
  }),
  exprCase('/ of integers', ORDERS, ['/', O('ID'), O('QUANTITY')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => ((r[8] as N) === 0 ? null : (r[0] as N) / (r[8] as N))),
  }),
  exprCase('/ by zero is NULL', ORDERS, ['/', O('TOTAL'), 0], undefined, { expectedFrom: (d) => rows(d.orders, () => null) }),
  exprCase('/ with NULL', ORDERS, ['/', O('TOTAL'), O('DISCOUNT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[6] === null ? null : (r[5] as N) / (r[6] as N))),
  }),
  exprCase('nested arithmetic', ORDERS, ['*', ['+', O('SUBTOTAL'), 1], ['-', O('QUANTITY'), 1]], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => ((r[3] as N) + 1) * ((r[8] as N) - 1)),
  }),
  exprCase('concat', PRODUCTS, ['concat', P('CATEGORY'), ': ', P('VENDOR')], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `${r[3]}: ${r[4]}`),
  }),
  exprCase('concat with unicode', PRODUCTS, ['concat', P('CATEGORY'), ' → Zürich 東京 🎉'], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `${r[3]} → Zürich 東京 🎉`),
  }),
  exprCase('concat with a hostile string', PRODUCTS, ['concat', "'; DROP TABLE x; --", P('CATEGORY')], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `'; DROP TABLE x; --${r[3]}`),
  }),
  exprCase('concat with an integer', PRODUCTS, ['concat', 'id-', P('ID')], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `id-${r[0]}`),
  }),
  exprCase('concat with NULL is NULL', ORDERS, ['concat', 'd', O('DISCOUNT')], undefined, {
    check: (rs) => expect(rs.some((r) => r[1] === null)).toBe(true),
  }),
  exprCase('substring', PRODUCTS, ['substring', P('CATEGORY'), 1, 3], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => String(r[3]).slice(0, 3)),
  }),
  exprCase('substring from 2 to the end', PRODUCTS, ['substring', P('CATEGORY'), 2], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => String(r[3]).slice(1)),
  }),
  exprCase('lower', PRODUCTS, ['lower', P('CATEGORY')], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => String(r[3]).toLowerCase()),
  }),
  exprCase('upper', PRODUCTS, ['upper', P('CATEGORY')], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => String(r[3]).toUpperCase()),
  }),
  exprCase('trim', PRODUCTS, ['trim', ['concat', '  ', P('CATEGORY'), '  ']], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => r[3]),
  }),
  exprCase('ltrim', PRODUCTS, ['ltrim', ['concat', '  ', P('CATEGORY'), '  ']], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `${r[3]}  `),
  }),
  exprCase('rtrim', PRODUCTS, ['rtrim', ['concat', '  ', P('CATEGORY'), '  ']], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => `  ${r[3]}`),
  }),
  exprCase('length', PRODUCTS, ['length', P('TITLE')], undefined, { expectedFrom: (d) => rows(d.products, (r) => String(r[2]).length) }),
  exprCase('length of unicode', PRODUCTS, ['length', ['concat', P('CATEGORY'), 'é東']], undefined, {
    expectedFrom: (d) => rows(d.products, (r) => String(r[3]).length + 2),
  }),
  exprCase('coalesce', ORDERS, ['coalesce', O('DISCOUNT'), 0], undefined, { expectedFrom: (d) => rows(d.orders, (r) => r[6] ?? 0) }),
  exprCase(
    'case',
    ORDERS,
    [
      'case',
      [
        [['<', O('TOTAL'), 50], 'small'],
        [['<', O('TOTAL'), 100], 'medium'],
      ],
      { default: 'large' },
    ],
    undefined,
    {
      expectedFrom: (d) => rows(d.orders, (r) => ((r[5] as N) < 50 ? 'small' : (r[5] as N) < 100 ? 'medium' : 'large')),
    },
  ),
  exprCase('case without default', ORDERS, ['case', [[['is-null', O('DISCOUNT')], 1]]], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[6] === null ? 1 : null)),
  }),
  exprCase('round', ORDERS, ['round', O('TOTAL')], undefined, { expectedFrom: (d) => rows(d.orders, (r) => Math.round(r[5] as N)) }),
  exprCase('round of halves away from zero', ORDERS, ['round', ['+', O('QUANTITY'), 0.5]], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => (r[8] as N) + 1),
  }),
  exprCase('abs', ORDERS, ['abs', ['-', 10, O('TOTAL')]], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Math.abs(10 - (r[5] as N))),
  }),
  exprCase('floor', ORDERS, ['floor', O('TOTAL')], undefined, { expectedFrom: (d) => rows(d.orders, (r) => Math.floor(r[5] as N)) }),
  exprCase('ceil', ORDERS, ['ceil', O('TOTAL')], undefined, { expectedFrom: (d) => rows(d.orders, (r) => Math.ceil(r[5] as N)) }),
  exprCase('sqrt', ORDERS, ['sqrt', O('TOTAL')], undefined, { expectedFrom: (d) => rows(d.orders, (r) => Math.sqrt(r[5] as N)) }),
  exprCase('power', ORDERS, ['power', O('QUANTITY'), 2], undefined, { expectedFrom: (d) => rows(d.orders, (r) => (r[8] as N) ** 2) }),
  exprCase('exp', ORDERS, ['exp', ['/', O('QUANTITY'), 10]], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Math.exp((r[8] as N) / 10)),
  }),
  exprCase('log is base 10', ORDERS, ['log', O('TOTAL')], undefined, { expectedFrom: (d) => rows(d.orders, (r) => Math.log10(r[5] as N)) }),
  exprCase('get-year', ORDERS, ['get-year', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(0, 4))),
  }),
  exprCase('get-quarter', ORDERS, ['get-quarter', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Math.ceil(Number(String(r[7]).slice(5, 7)) / 3)),
  }),
  exprCase('get-month', ORDERS, ['get-month', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(5, 7))),
  }),
  exprCase('get-day', ORDERS, ['get-day', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(8, 10))),
  }),
  exprCase('get-day-of-week', ORDERS, ['get-day-of-week', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => new Date(`${r[7]}Z`).getUTCDay() + 1),
  }),
  exprCase('get-hour', ORDERS, ['get-hour', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(11, 13))),
  }),
  exprCase('get-minute', ORDERS, ['get-minute', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(14, 16))),
  }),
  exprCase('get-second', ORDERS, ['get-second', O('CREATED_AT')], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => Number(String(r[7]).slice(17, 19))),
  }),
  exprCase('get-year of a date', PEOPLE, ['get-year', U('BIRTH_DATE')], undefined, {
    expectedFrom: (d) => rows(d.people, (r) => Number(String(r[9]).slice(0, 4))),
  }),
  exprCase('datetime-add days', ORDERS, ['datetime-add', O('CREATED_AT'), 3, 'day'], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => new Date(Date.parse(`${r[7]}Z`) + 3 * 86_400_000).toISOString().slice(0, 19)),
  }),
  exprCase('datetime-add negative hours', ORDERS, ['datetime-add', O('CREATED_AT'), -5, 'hour'], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => new Date(Date.parse(`${r[7]}Z`) - 5 * 3_600_000).toISOString().slice(0, 19)),
  }),
  exprCase('datetime-add weeks', ORDERS, ['datetime-add', O('CREATED_AT'), 2, 'week'], undefined, {
    expectedFrom: (d) => rows(d.orders, (r) => new Date(Date.parse(`${r[7]}Z`) + 14 * 86_400_000).toISOString().slice(0, 19)),
  }),
  exprCase(
    'datetime-diff days',
    ORDERS,
    ['datetime-diff', O('CREATED_AT'), ['datetime-add', O('CREATED_AT'), 10, 'day'], 'day'],
    undefined,
    { expectedFrom: (d) => rows(d.orders, () => 10) },
  ),
  exprCase(
    'datetime-diff hours negative',
    ORDERS,
    ['datetime-diff', O('CREATED_AT'), ['datetime-add', O('CREATED_AT'), -30, 'hour'], 'hour'],
    undefined,
    { expectedFrom: (d) => rows(d.orders, () => -30) },
  ),
  exprCase(
    'datetime-diff days counts calendar days',
    ORDERS,
    ['datetime-diff', O('CREATED_AT'), ['datetime-add', O('CREATED_AT'), 30, 'hour'], 'day'],
    undefined,
    {
      expectedFrom: (d) => rows(d.orders, (r) => (Number(String(r[7]).slice(11, 13)) + 6 >= 24 ? 2 : 1)),
    },
  ),
  exprCase('datetime-diff weeks between dates', PEOPLE, ['datetime-diff', U('BIRTH_DATE'), U('CREATED_AT'), 'week'], undefined, {
    expectedFrom: (d) =>
      rows(d.people, (r) => Math.trunc((Date.parse(`${String(r[12]).slice(0, 10)}Z`) - Date.parse(`${r[9]}Z`)) / (7 * 86_400_000))),
  }),
  exprCase(
    'datetime-diff minutes',
    ORDERS,
    ['datetime-diff', O('CREATED_AT'), ['datetime-add', O('CREATED_AT'), 90, 'second'], 'minute'],
    undefined,
    { expectedFrom: (d) => rows(d.orders, () => 1) },
  ),
  exprCase('datetime-diff years', PEOPLE, ['datetime-diff', U('BIRTH_DATE'), U('CREATED_AT'), 'year'], undefined, {
    expectedFrom: (d) =>
      rows(d.people, (r) => {
        const [b, c] = [String(r[9]), String(r[12])];
        let years = Number(c.slice(0, 4)) - Number(b.slice(0, 4));
        if (c.slice(5, 10) < b.slice(5, 10)) years -= 1;
        return years;
      }),
    check: (rs) => rs.forEach((r) => expect(r[1]).toBeGreaterThan(10)),
  }),
  exprCase('nested expressions referring to expressions', ORDERS, ['*', ['expression', 'y'], 2], undefined, {}),
  {
    name: 'expressions are selected with the default fields',
    query: {
      'source-table': PRODUCTS,
      expressions: { double_price: ['*', P('PRICE'), 2], label: ['upper', P('CATEGORY')] },
      'order-by': [['asc', P('ID')]],
      limit: 2,
    },
    columns: ['ID', 'EAN', 'TITLE', 'CATEGORY', 'VENDOR', 'PRICE', 'RATING', 'CREATED_AT', 'double_price', 'label'],
  },
  {
    name: 'breakout on an expression',
    query: {
      'source-table': PRODUCTS,
      expressions: { cat: ['lower', P('CATEGORY')] },
      breakout: [['expression', 'cat']],
      aggregation: [['count']],
    },
    expectedFrom: (d) =>
      ['doohickey', 'gadget', 'gizmo', 'widget'].map((c) => [c, d.products.filter((r) => String(r[3]).toLowerCase() === c).length]),
  },
  {
    name: 'breakout on an expression with a bound string',
    query: {
      'source-table': PRODUCTS,
      expressions: { cat: ['concat', 'cat: ', P('CATEGORY')] },
      breakout: [['expression', 'cat']],
      aggregation: [['count']],
    },
    expectedFrom: (d) => ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [`cat: ${c}`, d.products.filter((r) => r[3] === c).length]),
  },
  {
    name: 'order by an expression',
    query: {
      'source-table': PRODUCTS,
      expressions: { neg: ['-', 0, P('PRICE')] },
      fields: [P('ID'), ['expression', 'neg']],
      'order-by': [
        ['asc', ['expression', 'neg']],
        ['asc', P('ID')],
      ],
      limit: 3,
    },
    expectedFrom: (d) =>
      [...d.products]
        .sort((a, b) => (b[5] as N) - (a[5] as N) || (a[0] as N) - (b[0] as N))
        .slice(0, 3)
        .map((r) => [r[0], -(r[5] as N)]),
  },
];
// 'y' for the nested-expression case.
const nested = EXPRESSION_CASES.find((c) => c.name === 'expression nested expressions referring to expressions')!;
nested.query.expressions = { y: ['+', O('QUANTITY'), 1], x: ['*', ['expression', 'y'], 2] };
nested.expectedFrom = (d) => rows(d.orders, (r) => ((r[8] as N) + 1) * 2);
