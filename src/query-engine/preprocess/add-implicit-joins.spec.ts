import { compilerFor } from '../compile';
import { QueryCompileError, type MetadataSnapshot } from '../compile/contract';
import type { FieldMeta, TableMeta } from '../metadata';
import type { FieldRef, InnerQuery, Join } from '../mbql/types';
import { addImplicitJoins } from './add-implicit-joins';
import { PreprocessError } from './context';

// ORDERS (1): ID 10, USER_ID 11 -> PEOPLE.ID, PRODUCT_ID 12 -> PRODUCTS.ID, TOTAL 13, NOTE 14 (no FK)
// PEOPLE (2): ID 20, STATE 21, CREATED_AT 22; PRODUCTS (3): ID 30, CATEGORY 31 (12 names no target: its primary key is
// found); NOTES (4): TEXT 40, no primary key
const tables: TableMeta[] = [
  { id: 1, dbId: 1, schema: null, name: 'ORDERS', displayName: 'Orders' },
  { id: 2, dbId: 1, schema: null, name: 'PEOPLE', displayName: 'People' },
  { id: 3, dbId: 1, schema: null, name: 'PRODUCTS', displayName: 'Products' },
  { id: 4, dbId: 1, schema: null, name: 'NOTES', displayName: 'Notes' },
];
const f = (id: number, tableId: number, name: string, displayName: string, extra: Partial<FieldMeta> = {}): FieldMeta => ({
  id,
  tableId,
  name,
  displayName,
  baseType: 'type/Integer',
  effectiveType: 'type/Integer',
  semanticType: null,
  fkTargetFieldId: null,
  visibilityType: 'normal',
  coercionStrategy: null,
  fingerprint: null,
  position: id % 10,
  ...extra,
});
const fields: FieldMeta[] = [
  f(10, 1, 'ID', 'ID', { semanticType: 'type/PK' }),
  f(11, 1, 'USER_ID', 'User ID', { semanticType: 'type/FK', fkTargetFieldId: 20 }),
  f(12, 1, 'PRODUCT_ID', 'Product ID', { semanticType: 'type/FK' }),
  f(13, 1, 'TOTAL', 'Total', { baseType: 'type/Float', effectiveType: 'type/Float' }),
  f(14, 1, 'NOTE', 'Note', { baseType: 'type/Text', effectiveType: 'type/Text' }),
  f(20, 2, 'ID', 'ID', { semanticType: 'type/PK' }),
  f(21, 2, 'STATE', 'State', { baseType: 'type/Text', effectiveType: 'type/Text' }),
  f(22, 2, 'CREATED_AT', 'Created At', { baseType: 'type/DateTime', effectiveType: 'type/DateTime' }),
  f(30, 3, 'ID', 'ID', { semanticType: 'type/PK' }),
  f(31, 3, 'CATEGORY', 'Category', { baseType: 'type/Text', effectiveType: 'type/Text' }),
  f(40, 4, 'TEXT', 'Text', { baseType: 'type/Text', effectiveType: 'type/Text' }),
];
const meta: MetadataSnapshot = {
  table: (id) =>
    tables.find((t) => t.id === id) ??
    (() => {
      throw new PreprocessError(`Table ${id} is not part of this query's metadata.`);
    })(),
  field: (id) =>
    fields.find((x) => x.id === id) ??
    (() => {
      throw new PreprocessError(`Field ${id} is not part of this query's metadata.`);
    })(),
  tableFields: (id) => fields.filter((x) => x.tableId === id),
};

const ref = (id: number, opts: FieldRef[2] = null): FieldRef => ['field', id, opts];
const viaUser = (alias = 'PEOPLE__via__USER_ID'): Join => ({
  'source-table': 2,
  alias,
  condition: ['=', ref(11), ref(20, { 'join-alias': alias })],
  strategy: 'left-join',
  fields: 'none',
  'fk-field-id': 11,
  'qp/implicit-join': true,
});
const viaProduct: Join = {
  'source-table': 3,
  alias: 'PRODUCTS__via__PRODUCT_ID',
  condition: ['=', ref(12), ref(30, { 'join-alias': 'PRODUCTS__via__PRODUCT_ID' })],
  strategy: 'left-join',
  fields: 'none',
  'fk-field-id': 12,
  'qp/implicit-join': true,
};

describe('addImplicitJoins', () => {
  it('turns each foreign key that source-field refs go through into one join, and points the refs at it', () => {
    const q = addImplicitJoins(
      {
        'source-table': 1,
        breakout: [ref(21, { 'source-field': 11 }), ref(22, { 'source-field': 11, 'temporal-unit': 'month' })],
        aggregation: [['sum', ref(13)]],
        filter: ['=', ref(21, { 'source-field': 11 }), 'CA'],
      },
      meta,
    );
    expect(q).toEqual({
      'source-table': 1,
      breakout: [
        ref(21, { 'source-field': 11, 'join-alias': 'PEOPLE__via__USER_ID' }),
        ref(22, { 'source-field': 11, 'temporal-unit': 'month', 'join-alias': 'PEOPLE__via__USER_ID' }),
      ],
      aggregation: [['sum', ref(13)]],
      filter: ['=', ref(21, { 'source-field': 11, 'join-alias': 'PEOPLE__via__USER_ID' }), 'CA'],
      joins: [viaUser()],
    });
  });

  it("joins on the target's primary key when the FK names no target, after the explicit joins, in the compiler's order of clauses", () => {
    const explicit: Join = { 'source-table': 2, alias: 'U', condition: ['=', ref(11), ref(20, { 'join-alias': 'U' })] };
    const q = addImplicitJoins(
      {
        'source-table': 1,
        joins: [explicit],
        // the filter comes first here, but breakouts are compiled before it
        filter: ['=', ref(21, { 'source-field': 11 }), 'CA'],
        breakout: [ref(31, { 'source-field': 12 })],
        aggregation: [['count']],
      },
      meta,
    );
    expect(q.joins).toEqual([explicit, viaProduct, viaUser()]);
  });

  it('follows expressions where they are referred to, and rewrites refs inside clause options', () => {
    const q = addImplicitJoins(
      {
        'source-table': 1,
        expressions: { cat: ['upper', ref(31, { 'source-field': 12 })], unused: ['lower', ref(21, { 'source-field': 11 })] },
        fields: [ref(10), ['expression', 'cat']],
        filter: [
          'contains',
          ['case', [[['=', ref(13), 1], 'a']], { default: ref(21, { 'source-field': 11 }) }],
          'x',
          { 'case-sensitive': false },
        ],
      },
      meta,
    );
    expect(q.joins).toEqual([viaProduct, viaUser()]);
    expect(q.expressions).toEqual({
      cat: ['upper', ref(31, { 'source-field': 12, 'join-alias': 'PRODUCTS__via__PRODUCT_ID' })],
      unused: ['lower', ref(21, { 'source-field': 11, 'join-alias': 'PEOPLE__via__USER_ID' })],
    });
    expect(q.filter).toEqual([
      'contains',
      ['case', [[['=', ref(13), 1], 'a']], { default: ref(21, { 'source-field': 11, 'join-alias': 'PEOPLE__via__USER_ID' }) }],
      'x',
      { 'case-sensitive': false },
    ]);
  });

  it('works level by level: source queries and the source queries of joins get their own joins', () => {
    const q = addImplicitJoins(
      {
        'source-query': { 'source-table': 1, fields: [ref(10), ref(11), ref(21, { 'source-field': 11 })] },
        joins: [
          {
            alias: 'J',
            'source-query': { 'source-table': 1, breakout: [ref(31, { 'source-field': 12 })], aggregation: [['count']] },
            condition: ['=', 1, 1],
          },
        ],
        breakout: [ref(21, { 'source-field': 11 })],
        aggregation: [['count']],
      },
      meta,
    );
    expect(q['source-query']!.joins).toEqual([viaUser()]);
    expect(q.joins![0]['source-query']!.joins).toEqual([viaProduct]);
    expect(q.joins!.map((j) => j.alias)).toEqual(['J', 'PEOPLE__via__USER_ID']);
  });

  it('leaves queries without source-field, and refs that name their join, as they are', () => {
    const plain: InnerQuery = { 'source-table': 1, fields: [ref(10)] };
    expect(addImplicitJoins(plain, meta)).toBe(plain);
    const named: InnerQuery = { 'source-table': 1, joins: [viaUser('P')], fields: [ref(21, { 'source-field': 11, 'join-alias': 'P' })] };
    expect(addImplicitJoins(named, meta)).toEqual(named);
  });

  it('refuses what cannot be joined, naming the clause', () => {
    expect(() => addImplicitJoins({ 'source-table': 1, fields: [ref(40, { 'source-field': 14 })] }, meta)).toThrow(
      new PreprocessError('Field 14 is not a foreign key in "fields".'),
    );
    expect(() => addImplicitJoins({ 'source-table': 1, filter: ['=', ref(21, { 'source-field': 99 }), 1] }, meta)).toThrow(
      new PreprocessError('Unknown field 99 in "filter".'),
    );
    expect(() => addImplicitJoins({ 'source-table': 1, fields: [['field', 'STATE', { 'source-field': 11 }]] }, meta)).toThrow(
      'Invalid field id "STATE" in "fields".',
    );
    const taken: InnerQuery = {
      'source-table': 1,
      joins: [{ 'source-table': 3, alias: 'PEOPLE__via__USER_ID', condition: ['=', 1, 1] }],
      fields: [ref(21, { 'source-field': 11 })],
    };
    expect(() => addImplicitJoins(taken, meta)).toThrow(
      /"PEOPLE__via__USER_ID" of the implicit join through field 11 is the alias of another join in "fields"/,
    );
  });
});

describe('compiling implicit joins', () => {
  const compile = (q: InnerQuery) => compilerFor('sqlite').compile(addImplicitJoins(q, meta), meta, { timezone: null });

  it('answers their columns as Metabase does: the ref as sent, "User → State", fk_field_id and the alias', () => {
    const { sql, columns } = compile({
      'source-table': 1,
      breakout: [ref(21, { 'source-field': 11 }), ref(22, { 'source-field': 11, 'temporal-unit': 'year' })],
      aggregation: [['count']],
    });
    expect(sql).toContain(
      'FROM "ORDERS" LEFT JOIN "PEOPLE" AS "PEOPLE__via__USER_ID" ON "ORDERS"."USER_ID" = "PEOPLE__via__USER_ID"."ID" GROUP BY',
    );
    expect(columns[0]).toMatchObject({
      name: 'PEOPLE__via__USER_ID__STATE',
      display_name: 'User → State',
      source: 'breakout',
      id: 21,
      table_id: 2,
      field_ref: ['field', 21, { 'source-field': 11 }],
      fk_field_id: 11,
      source_alias: 'PEOPLE__via__USER_ID',
    });
    expect(columns[1]).toMatchObject({
      name: 'PEOPLE__via__USER_ID__CREATED_AT',
      display_name: 'User → Created At: Year',
      unit: 'year',
      field_ref: ['field', 22, { 'source-field': 11, 'temporal-unit': 'year' }],
    });
  });

  it('keeps an explicit join of the same table the only match of a ref without alias', () => {
    const { sql } = compile({
      'source-table': 1,
      joins: [{ 'source-table': 2, alias: 'U', condition: ['=', ref(11), ref(20, { 'join-alias': 'U' })] }],
      fields: [ref(21), ref(21, { 'source-field': 11 })],
    });
    expect(sql).toMatch(/^SELECT "U"."STATE" AS "U__STATE", "PEOPLE__via__USER_ID"."STATE" AS "PEOPLE__via__USER_ID__STATE" FROM/);
  });

  it('refuses source-field refs that reach the compiler without their join, and in native field filters', () => {
    const bare = () =>
      compilerFor('sqlite').compile({ 'source-table': 1, fields: [ref(21, { 'source-field': 11 })] }, meta, { timezone: null });
    expect(bare).toThrow(QueryCompileError);
    expect(bare).toThrow('The implicit join through field 11 should have been added before compiling (add-implicit-joins) in "fields".');
    expect(() => compilerFor('sqlite').compileFilter(['=', ref(21, { 'source-field': 11 }), 'CA'], meta, { timezone: null })).toThrow(
      'Implicit joins (source-field) are not possible in a native field filter in "filter".',
    );
  });
});
