import { chainFilterQuery, findPath } from './chain-filter';

interface Q {
  query: { joins: unknown[]; filter: unknown[]; [k: string]: unknown };
  parameters: Array<{ target: unknown }>;
}

// The Sample Database's shape: ORDERS(1) -> PEOPLE(2) by USER_ID, ORDERS -> PRODUCTS(3) by PRODUCT_ID; REVIEWS(4) -> PRODUCTS.
const fields = [
  { id: 10, table_id: 1, fk_target_field_id: null }, // ORDERS.ID
  { id: 11, table_id: 1, fk_target_field_id: 20 }, // ORDERS.USER_ID
  { id: 12, table_id: 1, fk_target_field_id: 30 }, // ORDERS.PRODUCT_ID
  { id: 20, table_id: 2, fk_target_field_id: null }, // PEOPLE.ID
  { id: 21, table_id: 2, fk_target_field_id: null }, // PEOPLE.STATE
  { id: 30, table_id: 3, fk_target_field_id: null }, // PRODUCTS.ID
  { id: 31, table_id: 3, fk_target_field_id: null }, // PRODUCTS.CATEGORY
  { id: 40, table_id: 4, fk_target_field_id: 30 }, // REVIEWS.PRODUCT_ID
  { id: 50, table_id: 5, fk_target_field_id: null }, // an unrelated table
];

describe('findPath', () => {
  it('follows FKs both ways, shortest first', () => {
    expect(findPath(fields, 2, 2)).toEqual([]);
    expect(findPath(fields, 1, 2)).toEqual([{ fromField: 11, toField: 20, toTable: 2 }]);
    expect(findPath(fields, 2, 3)).toEqual([
      { fromField: 20, toField: 11, toTable: 1 },
      { fromField: 12, toField: 30, toTable: 3 },
    ]);
    expect(findPath(fields, 2, 4)).toHaveLength(3);
  });

  it('answers null without a path', () => {
    expect(findPath(fields, 2, 5)).toBeNull();
  });
});

describe('chainFilterQuery', () => {
  it('joins along the path and constrains the joined field through a parameter', () => {
    const path = findPath(fields, 2, 3)!;
    const q = chainFilterQuery(
      7,
      { id: 21, table_id: 2 },
      [{ fieldId: 31, tableId: 3, type: 'string/=', value: ['Gizmo'], path }],
      1000,
    ) as unknown as Q;
    expect(q.query.joins).toEqual([
      {
        'source-table': 1,
        alias: '__chain_1',
        strategy: 'inner-join',
        fields: 'none',
        condition: ['=', ['field', 20, null], ['field', 11, { 'join-alias': '__chain_1' }]],
      },
      {
        'source-table': 3,
        alias: '__chain_2',
        strategy: 'inner-join',
        fields: 'none',
        condition: ['=', ['field', 12, { 'join-alias': '__chain_1' }], ['field', 30, { 'join-alias': '__chain_2' }]],
      },
    ]);
    expect(q.parameters).toEqual([
      { type: 'string/=', target: ['dimension', ['field', 31, { 'join-alias': '__chain_2' }]], value: ['Gizmo'] },
    ]);
    expect(q.query).toMatchObject({ 'source-table': 2, breakout: [['field', 21, null]], limit: 1001 });
  });

  it('shares the joins of constraints along the same path; a same-table constraint needs none', () => {
    const path = findPath(fields, 2, 3)!;
    const q = chainFilterQuery(
      7,
      { id: 21, table_id: 2 },
      [
        { fieldId: 31, tableId: 3, type: 'category', value: 'Gizmo', path },
        { fieldId: 30, tableId: 3, type: 'id', value: 1, path },
        { fieldId: 20, tableId: 2, type: 'id', value: 3, path: [] },
      ],
      10,
      'x',
    ) as unknown as Q;
    expect(q.query.joins).toHaveLength(2);
    expect(q.parameters[2].target).toEqual(['dimension', ['field', 20, null]]);
    expect(q.query.filter[0]).toBe('and');
  });
});
