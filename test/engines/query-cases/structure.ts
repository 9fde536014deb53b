import type { QueryCase } from './types';
import { O, ORDERS, P, PEOPLE, PRODUCTS, R, REVIEWS, U } from './types';

type N = number;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export const BINNING_CASES: QueryCase[] = [
  {
    name: 'binning num-bins',
    query: {
      'source-table': ORDERS,
      breakout: [O('TOTAL', { binning: { strategy: 'num-bins', 'num-bins': 10 } })],
      aggregation: [['count']],
    },
    check: (rows) => expect(sum(rows.map((r) => r[1] as N))).toBe(500),
  },
  {
    name: 'binning bin-width',
    query: {
      'source-table': PRODUCTS,
      breakout: [P('PRICE', { binning: { strategy: 'bin-width', 'bin-width': 10 } })],
      aggregation: [['count']],
    },
    expectedFrom: (d) => {
      const m = new Map<number, number>();
      for (const r of d.products) {
        const b = Math.floor((r[5] as N) / 10) * 10;
        m.set(b, (m.get(b) ?? 0) + 1);
      }
      return [...m.entries()].sort((a, b) => a[0] - b[0]);
    },
  },
  {
    name: 'binning default on a number',
    query: { 'source-table': PRODUCTS, breakout: [P('RATING', { binning: { strategy: 'default' } })], aggregation: [['count']] },
    check: (rows) => expect(sum(rows.map((r) => r[1] as N))).toBe(200),
  },
  {
    name: 'binning default on a coordinate is 1 degree',
    query: { 'source-table': PEOPLE, breakout: [U('LATITUDE', { binning: { strategy: 'default' } })], aggregation: [['count']] },
    expectedFrom: (d) => {
      const m = new Map<number, number>();
      for (const r of d.people) {
        const b = Math.floor(r[11] as N);
        m.set(b, (m.get(b) ?? 0) + 1);
      }
      return [...m.entries()].sort((a, b) => a[0] - b[0]);
    },
  },
  {
    name: 'binning an integer column',
    query: {
      'source-table': ORDERS,
      breakout: [O('QUANTITY', { binning: { strategy: 'num-bins', 'num-bins': 4 } })],
      aggregation: [['count']],
    },
    check: (rows) => expect(sum(rows.map((r) => r[1] as N))).toBe(500),
  },
  {
    name: 'binning with two binned breakouts',
    query: {
      'source-table': PEOPLE,
      breakout: [
        U('LATITUDE', { binning: { strategy: 'bin-width', 'bin-width': 10 } }),
        U('LONGITUDE', { binning: { strategy: 'bin-width', 'bin-width': 20 } }),
      ],
      aggregation: [['count']],
    },
    check: (rows) => expect(sum(rows.map((r) => r[2] as N))).toBe(2500),
  },
];

export const LIMIT_CASES: QueryCase[] = [
  {
    name: 'limit',
    query: { 'source-table': ORDERS, fields: [O('ID')], 'order-by': [['asc', O('ID')]], limit: 4 },
    expected: [[1], [2], [3], [4]],
  },
  { name: 'limit 0', query: { 'source-table': ORDERS, fields: [O('ID')], 'order-by': [['asc', O('ID')]], limit: 0 }, expected: [] },
  {
    name: 'page 1',
    query: { 'source-table': ORDERS, fields: [O('ID')], 'order-by': [['asc', O('ID')]], page: { page: 1, items: 3 } },
    expected: [[1], [2], [3]],
  },
  {
    name: 'page 3',
    query: { 'source-table': ORDERS, fields: [O('ID')], 'order-by': [['asc', O('ID')]], page: { page: 3, items: 3 } },
    expected: [[7], [8], [9]],
  },
  {
    name: 'order by desc with limit',
    query: {
      'source-table': ORDERS,
      fields: [O('ID'), O('TOTAL')],
      'order-by': [
        ['desc', O('TOTAL')],
        ['asc', O('ID')],
      ],
      limit: 3,
    },
    expectedFrom: (d) =>
      [...d.orders]
        .sort((a, b) => (b[5] as N) - (a[5] as N) || (a[0] as N) - (b[0] as N))
        .slice(0, 3)
        .map((r) => [r[0], r[5]]),
  },
  {
    name: 'order by two columns',
    query: {
      'source-table': PRODUCTS,
      fields: [P('CATEGORY'), P('ID')],
      'order-by': [
        ['asc', P('CATEGORY')],
        ['desc', P('ID')],
      ],
      limit: 5,
    },
    expectedFrom: (d) =>
      [...d.products]
        .sort((a, b) => String(a[3]).localeCompare(String(b[3])) || (b[0] as N) - (a[0] as N))
        .slice(0, 5)
        .map((r) => [r[3], r[0]]),
  },
  {
    name: 'explicit fields',
    query: { 'source-table': PEOPLE, fields: [U('NAME'), U('STATE')], 'order-by': [['asc', U('ID')]], limit: 2 },
    expectedFrom: (d) => d.people.slice(0, 2).map((r) => [r[4], r[7]]),
    columns: ['NAME', 'STATE'],
  },
  {
    name: 'all people fields by default',
    query: { 'source-table': PEOPLE, 'order-by': [['asc', U('ID')]], limit: 2 },
    expectedFrom: (d) => d.people.slice(0, 2),
  },
  {
    name: 'all order fields by default (NULL discounts)',
    query: { 'source-table': ORDERS, 'order-by': [['asc', O('ID')]], limit: 20 },
    expectedFrom: (d) => d.orders.slice(0, 20),
  },
  {
    name: 'all review fields by default',
    query: { 'source-table': REVIEWS, 'order-by': [['asc', R('ID')]], limit: 3 },
    expectedFrom: (d) => d.reviews.slice(0, 3),
  },
  {
    name: 'a field by name on a table',
    query: {
      'source-table': PRODUCTS,
      fields: [['field', 'CATEGORY', { 'base-type': 'type/Text' }]],
      'order-by': [['asc', P('ID')]],
      limit: 2,
    },
    expectedFrom: (d) => d.products.slice(0, 2).map((r) => [r[3]]),
  },
  {
    name: 'breakouts are ordered ascending by default',
    query: { 'source-table': PRODUCTS, breakout: [P('CATEGORY'), P('VENDOR')], aggregation: [['count']], filter: ['<', P('ID'), 30] },
    check: (rows) => {
      const keys = rows.map((r) => `${r[0]}\u0000${r[1]}`);
      expect(keys).toEqual([...keys].sort());
    },
  },
];

export const JOIN_CASES: QueryCase[] = [
  {
    name: 'implicit join through source-field',
    query: { 'source-table': ORDERS, breakout: [P('CATEGORY', { 'source-field': 303 })], aggregation: [['count']] },
    expectedFrom: (d) => {
      const cat = new Map(d.products.map((p) => [p[0], p[3]]));
      const m = new Map<unknown, number>();
      for (const o of d.orders) m.set(cat.get(o[2]), (m.get(cat.get(o[2])) ?? 0) + 1);
      return [...m.entries()].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    },
    columns: ['PRODUCTS__via__PRODUCT_ID__CATEGORY', 'count'],
  },
  {
    name: 'two implicit joins',
    query: {
      'source-table': ORDERS,
      breakout: [P('CATEGORY', { 'source-field': 303 }), U('SOURCE', { 'source-field': 302 })],
      aggregation: [['sum', O('TOTAL')]],
    },
  },
  {
    name: 'implicit join in a filter',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['=', P('CATEGORY', { 'source-field': 303 }), 'Widget'] },
    expectedFrom: (d) => {
      const cat = new Map(d.products.map((p) => [p[0], p[3]]));
      return [[d.orders.filter((o) => cat.get(o[2]) === 'Widget').length]];
    },
  },
  {
    name: 'implicit join in fields',
    query: { 'source-table': ORDERS, fields: [O('ID'), P('TITLE', { 'source-field': 303 })], 'order-by': [['asc', O('ID')]], limit: 3 },
    expectedFrom: (d) => d.orders.slice(0, 3).map((o) => [o[0], d.products.find((p) => p[0] === o[2])![2]]),
  },
  ...(['left-join', 'inner-join', 'right-join'] as const).map((strategy): QueryCase => ({
    name: `explicit ${strategy} with all fields`,
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'Products',
          'source-table': PRODUCTS,
          strategy,
          fields: 'all',
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'Products' })],
        },
      ],
      'order-by': [['asc', O('ID')]],
      limit: 3,
      // NULLs (unmatched products of a right join) sort first or last depending on the engine.
      ...(strategy === 'right-join' ? { filter: ['not-null', O('ID')] } : {}),
    },
    expectedFrom: (d) => d.orders.slice(0, 3).map((o) => [...o, ...d.products.find((p) => p[0] === o[2])!]),
  })),
  {
    name: 'right join keeps unmatched rows',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'P',
          'source-table': PRODUCTS,
          strategy: 'right-join',
          fields: 'none',
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'P' })],
        },
      ],
      aggregation: [['count'], ['distinct', P('ID', { 'join-alias': 'P' })]],
    },
    expectedFrom: (d) => {
      const used = new Set(d.orders.map((o) => o[2]));
      return [[d.orders.length + d.products.filter((p) => !used.has(p[0])).length, 200]];
    },
  },
  {
    name: 'full join',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'P',
          'source-table': PRODUCTS,
          strategy: 'full-join',
          fields: 'none',
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'P' })],
        },
      ],
      aggregation: [['count']],
    },
    unsupported: { mysql: /MySQL\/MariaDB has no FULL JOIN \(join "P"\)/ },
    expectedFrom: (d) => {
      const used = new Set(d.orders.map((o) => o[2]));
      return [[d.orders.length + d.products.filter((p) => !used.has(p[0])).length]];
    },
  },
  {
    name: 'join with a field list and breakout on a joined field',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'People',
          'source-table': PEOPLE,
          fields: [U('STATE', { 'join-alias': 'People' })],
          condition: ['=', O('USER_ID'), U('ID', { 'join-alias': 'People' })],
        },
      ],
      breakout: [U('SOURCE', { 'join-alias': 'People' })],
      aggregation: [['count']],
    },
    columns: ['People__SOURCE', 'count'],
  },
  {
    name: 'join fields list',
    query: {
      'source-table': ORDERS,
      fields: [O('ID')],
      joins: [
        {
          alias: 'People',
          'source-table': PEOPLE,
          fields: [U('STATE', { 'join-alias': 'People' })],
          condition: ['=', O('USER_ID'), U('ID', { 'join-alias': 'People' })],
        },
      ],
      'order-by': [['asc', O('ID')]],
      limit: 3,
    },
    columns: ['ID', 'People__STATE'],
    expectedFrom: (d) => d.orders.slice(0, 3).map((o) => [o[0], d.people.find((p) => p[0] === o[1])![7]]),
  },
  {
    name: 'join with a compound condition',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'R',
          'source-table': REVIEWS,
          strategy: 'inner-join',
          fields: 'none',
          condition: ['and', ['=', O('PRODUCT_ID'), R('PRODUCT_ID', { 'join-alias': 'R' })], ['>=', R('RATING', { 'join-alias': 'R' }), 4]],
        },
      ],
      aggregation: [['count']],
    },
    expectedFrom: (d) => [[sum(d.orders.map((o) => d.reviews.filter((r) => r[1] === o[2] && (r[3] as N) >= 4).length))]],
  },
  {
    name: 'self join',
    query: {
      'source-table': PRODUCTS,
      joins: [
        {
          alias: 'Same',
          'source-table': PRODUCTS,
          strategy: 'inner-join',
          fields: 'none',
          condition: ['=', P('CATEGORY'), P('CATEGORY', { 'join-alias': 'Same' })],
        },
      ],
      aggregation: [['count']],
    },
    expectedFrom: (d) => [[sum(['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => d.products.filter((p) => p[3] === c).length ** 2))]],
  },
  {
    name: 'join to a source query',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'Stats',
          'source-query': { 'source-table': REVIEWS, breakout: [R('PRODUCT_ID')], aggregation: [['avg', R('RATING')]] },
          strategy: 'left-join',
          fields: 'all',
          condition: ['=', O('PRODUCT_ID'), ['field', 'PRODUCT_ID', { 'base-type': 'type/Integer', 'join-alias': 'Stats' }]],
        },
      ],
      fields: [O('ID')],
      'order-by': [['asc', O('ID')]],
      limit: 5,
    },
    columns: ['ID', 'Stats__PRODUCT_ID', 'Stats__avg'],
  },
  {
    name: 'aggregating a joined field',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'Products',
          'source-table': PRODUCTS,
          fields: 'none',
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'Products' })],
        },
      ],
      aggregation: [['avg', P('PRICE', { 'join-alias': 'Products' })]],
    },
    expectedFrom: (d) => [[sum(d.orders.map((o) => d.products.find((p) => p[0] === o[2])![5] as N)) / d.orders.length]],
  },
  {
    name: 'two joins',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: 'Products',
          'source-table': PRODUCTS,
          fields: 'none',
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'Products' })],
        },
        { alias: 'People', 'source-table': PEOPLE, fields: 'none', condition: ['=', O('USER_ID'), U('ID', { 'join-alias': 'People' })] },
      ],
      breakout: [P('CATEGORY', { 'join-alias': 'Products' })],
      aggregation: [['distinct', U('STATE', { 'join-alias': 'People' })]],
    },
  },
];

export const NESTED_CASES: QueryCase[] = [
  {
    name: 'nested: count over a source query',
    query: { 'source-query': { 'source-table': ORDERS, filter: ['>', O('TOTAL'), 100] }, aggregation: [['count']] },
    expectedFrom: (d) => [[d.orders.filter((o) => (o[5] as N) > 100).length]],
  },
  {
    name: 'nested: all columns of a source query',
    query: {
      'source-query': { 'source-table': PRODUCTS, fields: [P('ID'), P('CATEGORY')] },
      'order-by': [['asc', ['field', 'ID', { 'base-type': 'type/Integer' }]]],
      limit: 2,
    },
    expectedFrom: (d) => d.products.slice(0, 2).map((p) => [p[0], p[3]]),
    columns: ['ID', 'CATEGORY'],
  },
  {
    name: 'nested: filter on an aggregate of the source query',
    query: {
      'source-query': { 'source-table': ORDERS, breakout: [O('PRODUCT_ID')], aggregation: [['count']] },
      filter: ['>', ['field', 'count', { 'base-type': 'type/Integer' }], 4],
      aggregation: [['count']],
    },
    expectedFrom: (d) => {
      const m = new Map<unknown, number>();
      for (const o of d.orders) m.set(o[2], (m.get(o[2]) ?? 0) + 1);
      return [[[...m.values()].filter((n) => n > 4).length]];
    },
  },
  {
    name: 'nested: breakout by month then average of counts',
    query: {
      'source-query': { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'month' })], aggregation: [['count']] },
      aggregation: [['avg', ['field', 'count', { 'base-type': 'type/Integer' }]]],
    },
  },
  {
    name: 'nested: timestamps of the source query pass through',
    query: {
      'source-query': { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'year' })], aggregation: [['count']] },
      fields: [['field', 'CREATED_AT', { 'base-type': 'type/DateTime' }]],
      'order-by': [['asc', ['field', 'CREATED_AT', { 'base-type': 'type/DateTime' }]]],
      limit: 1,
    },
    expected: [['2022-01-01T00:00:00']],
  },
  {
    name: 'nested: filter on a bucketed column of the source query',
    query: {
      'source-query': { 'source-table': ORDERS, breakout: [O('CREATED_AT', { 'temporal-unit': 'month' })], aggregation: [['count']] },
      filter: ['>=', ['field', 'CREATED_AT', { 'base-type': 'type/DateTime' }], '2025-01-01'],
      aggregation: [['count']],
    },
    expected: [[15]],
  },
  {
    name: 'nested: field id ref into a source query',
    query: { 'source-query': { 'source-table': ORDERS, fields: [O('ID'), O('TOTAL')] }, aggregation: [['max', O('TOTAL')]] },
    expectedFrom: (d) => [[Math.max(...d.orders.map((o) => o[5] as N))]],
  },
  {
    name: 'nested: three levels',
    query: {
      'source-query': {
        'source-query': { 'source-table': PRODUCTS, fields: [P('CATEGORY'), P('PRICE')], filter: ['>', P('PRICE'), 30] },
        breakout: [['field', 'CATEGORY', { 'base-type': 'type/Text' }]],
        aggregation: [['sum', ['field', 'PRICE', { 'base-type': 'type/Float' }]]],
      },
      aggregation: [['sum', ['field', 'sum', { 'base-type': 'type/Float' }]]],
    },
    expectedFrom: (d) => [[sum(d.products.filter((p) => (p[5] as N) > 30).map((p) => p[5] as N))]],
  },
  {
    name: 'nested: expression over source columns',
    query: {
      'source-query': { 'source-table': ORDERS, fields: [O('ID'), O('SUBTOTAL'), O('TAX')] },
      expressions: { gross: ['+', ['field', 'SUBTOTAL', { 'base-type': 'type/Float' }], ['field', 'TAX', { 'base-type': 'type/Float' }]] },
      fields: [
        ['field', 'ID', { 'base-type': 'type/Integer' }],
        ['expression', 'gross'],
      ],
      'order-by': [['asc', ['field', 'ID', { 'base-type': 'type/Integer' }]]],
      limit: 3,
    },
    expectedFrom: (d) => d.orders.slice(0, 3).map((o) => [o[0], (o[3] as N) + (o[4] as N)]),
  },
  {
    name: 'nested: join inside the source query',
    query: {
      'source-query': {
        'source-table': ORDERS,
        joins: [
          {
            alias: 'Products',
            'source-table': PRODUCTS,
            fields: [P('CATEGORY', { 'join-alias': 'Products' })],
            condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'Products' })],
          },
        ],
        fields: [O('ID')],
      },
      breakout: [['field', 'Products__CATEGORY', { 'base-type': 'type/Text' }]],
      aggregation: [['count']],
    },
  },
  {
    name: 'nested: a joined column of the source query referred to by its join alias',
    query: {
      'source-query': {
        'source-table': ORDERS,
        joins: [
          {
            alias: 'Products',
            'source-table': PRODUCTS,
            fields: [P('CATEGORY', { 'join-alias': 'Products' })],
            condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': 'Products' })],
          },
        ],
        fields: [O('ID')],
      },
      breakout: [P('CATEGORY', { 'join-alias': 'Products' })],
      aggregation: [['count']],
    },
    expectedFrom: (d) =>
      ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [
        c,
        d.orders.filter((o) => d.products.find((p) => p[0] === o[2])![3] === c).length,
      ]),
    columns: ['Products__CATEGORY', 'count'],
  },
  {
    name: 'nested: implicit join from a source query',
    query: {
      'source-query': { 'source-table': ORDERS, fields: [O('ID'), O('PRODUCT_ID')] },
      breakout: [P('CATEGORY', { 'source-field': 303 })],
      aggregation: [['count']],
    },
  },
  {
    name: 'nested: raw timestamps and dates through a source query',
    query: {
      'source-query': { 'source-table': PEOPLE, fields: [U('ID'), U('CREATED_AT'), U('BIRTH_DATE')] },
      'order-by': [['asc', ['field', 'ID', { 'base-type': 'type/Integer' }]]],
      limit: 3,
    },
    expectedFrom: (d) => d.people.slice(0, 3).map((p) => [p[0], p[12], p[9]]),
  },
  {
    name: 'nested: min of a timestamp of a source query',
    query: {
      'source-query': { 'source-table': PEOPLE, fields: [U('ID'), U('CREATED_AT')] },
      aggregation: [['min', ['field', 'CREATED_AT', { 'base-type': 'type/DateTime' }]]],
    },
    expectedFrom: (d) => [[d.people.map((p) => p[12] as string).sort()[0]]],
  },
  {
    name: 'filter != a day keeps NULLs',
    query: { 'source-table': ORDERS, aggregation: [['count']], filter: ['!=', O('CREATED_AT'), '2024-03-05'] },
    expectedFrom: (d) => [[d.orders.filter((o) => !String(o[7]).startsWith('2024-03-05')).length]],
  },
  {
    name: 'nested: a native source query',
    query: {
      native: 'SELECT "ID" AS id, "CATEGORY" AS category FROM "PRODUCTS" -- a comment;\n;',
      breakout: [['field', 'category', { 'base-type': 'type/Text' }]],
      aggregation: [['count']],
    },
    engines: ['sqlite', 'duckdb', 'postgres'],
    expectedFrom: (d) => ['Doohickey', 'Gadget', 'Gizmo', 'Widget'].map((c) => [c, d.products.filter((p) => p[3] === c).length]),
  },
  {
    // A native saved question as the source (card__<id>, MBQL 5 source-card): its saved columns stand for `fields`.
    name: 'nested: a native saved question with its saved columns, no fields listed',
    query: {
      native: 'SELECT "ID" AS id, "CATEGORY" AS category FROM "PRODUCTS" WHERE "ID" <= 3',
      'native-columns': [
        { name: 'id', base_type: 'type/BigInteger' },
        { name: 'category', base_type: 'type/Text' },
      ],
      'order-by': [['asc', ['field', 'id', { 'base-type': 'type/BigInteger' }]]],
    },
    engines: ['sqlite', 'duckdb', 'postgres'],
    expectedFrom: (d) => d.products.filter((p) => Number(p[0]) <= 3).map((p) => [p[0], p[3]]),
  },
  {
    name: 'nested: a native saved question with its saved columns, no fields listed (MySQL quoting)',
    query: {
      native: 'SELECT `ID` AS id, `CATEGORY` AS category FROM `PRODUCTS` WHERE `ID` <= 3',
      'native-columns': [
        { name: 'id', base_type: 'type/BigInteger' },
        { name: 'category', base_type: 'type/Text' },
      ],
      'order-by': [['asc', ['field', 'id', { 'base-type': 'type/BigInteger' }]]],
    },
    engines: ['mysql'],
    expectedFrom: (d) => d.products.filter((p) => Number(p[0]) <= 3).map((p) => [p[0], p[3]]),
  },
  {
    name: 'nested: limit in the source query',
    query: {
      'source-query': { 'source-table': ORDERS, fields: [O('ID')], 'order-by': [['asc', O('ID')]], limit: 10 },
      aggregation: [['count']],
    },
    expected: [[10]],
  },
  {
    name: 'nested: binning a source column',
    query: {
      'source-query': { 'source-table': PRODUCTS, fields: [P('ID'), P('PRICE')] },
      breakout: [P('PRICE', { binning: { strategy: 'bin-width', 'bin-width': 25 } })],
      aggregation: [['count']],
    },
    check: (rows) => expect(sum(rows.map((r) => r[1] as N))).toBe(200),
  },
];

const HOSTILE_ALIAS = 'P" `?\' ; -- é';
const HOSTILE_NAME = 'n?`"\'; DROP TABLE "ORDERS"; --';

/** Hostile names and values run for real: they must be quoted or bound, and the results unharmed. */
export const HOSTILE_CASES: QueryCase[] = [
  {
    name: 'hostile join alias',
    query: {
      'source-table': ORDERS,
      joins: [
        {
          alias: HOSTILE_ALIAS,
          'source-table': PRODUCTS,
          fields: [P('CATEGORY', { 'join-alias': HOSTILE_ALIAS })],
          condition: ['=', O('PRODUCT_ID'), P('ID', { 'join-alias': HOSTILE_ALIAS })],
        },
      ],
      fields: [O('ID')],
      filter: ['=', P('CATEGORY', { 'join-alias': HOSTILE_ALIAS }), 'Widget'],
      'order-by': [['asc', O('ID')]],
      limit: 2,
    },
    columns: ['ID', `${HOSTILE_ALIAS}__CATEGORY`],
    expectedFrom: (d) =>
      d.orders
        .filter((o) => d.products.find((p) => p[0] === o[2])![3] === 'Widget')
        .slice(0, 2)
        .map((o) => [o[0], 'Widget']),
  },
  {
    name: 'hostile aggregation name used by an outer query',
    query: {
      'source-query': {
        'source-table': ORDERS,
        breakout: [O('USER_ID')],
        aggregation: [['aggregation-options', ['count'], { name: HOSTILE_NAME }]],
      },
      filter: ['>', ['field', HOSTILE_NAME, { 'base-type': 'type/Integer' }], 1],
      aggregation: [['sum', ['field', HOSTILE_NAME, { 'base-type': 'type/Integer' }]]],
    },
    expectedFrom: (d) => {
      const m = new Map<unknown, number>();
      for (const o of d.orders) m.set(o[1], (m.get(o[1]) ?? 0) + 1);
      return [[sum([...m.values()].filter((n) => n > 1))]];
    },
  },
  {
    name: 'hostile expression name and values',
    query: {
      'source-table': PRODUCTS,
      expressions: { [HOSTILE_NAME]: ['concat', "'); DROP TABLE x; --", P('CATEGORY'), '?', '$1', '\\'] },
      fields: [P('ID'), ['expression', HOSTILE_NAME]],
      filter: ['contains', ['expression', HOSTILE_NAME], '); DROP'],
      'order-by': [['asc', P('ID')]],
      limit: 1,
    },
    columns: ['ID', HOSTILE_NAME],
    expectedFrom: (d) => [[d.products[0][0], `'); DROP TABLE x; --${d.products[0][3]}?$1\\`]],
  },
  {
    name: 'tables are intact after the hostile cases',
    query: { 'source-table': ORDERS, aggregation: [['count']] },
    expected: [[500]],
  },
];
