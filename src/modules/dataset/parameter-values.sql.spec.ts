import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import type { FieldRef } from '../../query-engine/mbql/types';
import { cardValuesQuery, containsPattern, distinctValuesSql } from './parameter-values.sql';

describe('parameter value SQL', () => {
  const table = { schema: 'PUBLIC', name: 'PRODUCTS' } as WarehouseTable;
  const text = { name: 'TITLE', base_type: 'type/Text' } as WarehouseField;
  const num = { name: 'PRICE', base_type: 'type/Float' } as WarehouseField;

  it('escapes LIKE wildcards and lower-cases the search text', () => {
    expect(containsPattern('Chair')).toBe('%chair%');
    expect(containsPattern('50%_off!')).toBe('%50!%!_off!!%');
  });

  it('quotes names and binds the search text', () => {
    expect(distinctValuesSql('postgres', table, text, false)).toBe(
      'SELECT DISTINCT "TITLE" FROM "PUBLIC"."PRODUCTS" WHERE "TITLE" IS NOT NULL ORDER BY 1',
    );
    expect(distinctValuesSql('postgres', table, num, true)).toBe(
      `SELECT DISTINCT "PRICE" FROM "PUBLIC"."PRODUCTS" WHERE LOWER(CAST("PRICE" AS TEXT)) LIKE ? ESCAPE '!' ORDER BY 1`,
    );
    expect(distinctValuesSql('mysql', table, num, true)).toContain('LOWER(CAST(`PRICE` AS CHAR)) LIKE ?');
    expect(
      distinctValuesSql(
        'sqlite',
        { ...table, schema: null } as WarehouseTable,
        { name: 'a"b', base_type: 'type/Text' } as WarehouseField,
        false,
      ),
    ).toBe('SELECT DISTINCT "a""b" FROM "PRODUCTS" WHERE "a""b" IS NOT NULL ORDER BY 1');
  });
});

describe('card parameter values query', () => {
  const value = ['field', 12, null] as FieldRef;
  const label = ['field', 'TITLE', { 'base-type': 'type/Text' }] as FieldRef;

  it('breaks out the non-null values of the card, one row over the cap', () => {
    expect(cardValuesQuery(3, { cardId: 7, valueField: value }, 1000)).toEqual({
      database: 3,
      type: 'query',
      query: { 'source-table': 'card__7', breakout: [value], filter: ['not-null', value], limit: 1001 },
    });
  });

  it('adds the label to the breakout and searches value or label as text, any case', () => {
    const q = cardValuesQuery(3, { cardId: 7, valueField: value, labelField: label }, 1000, 'Chair');
    expect(q.query?.breakout).toEqual([value, label]);
    expect(q.query?.filter).toEqual([
      'and',
      ['not-null', value],
      [
        'or',
        ['contains', ['concat', value], 'Chair', { 'case-sensitive': false }],
        ['contains', ['concat', label], 'Chair', { 'case-sensitive': false }],
      ],
    ]);
    expect(cardValuesQuery(3, { cardId: 7, valueField: value }, 1000, 'x').query?.filter).toEqual([
      'and',
      ['not-null', value],
      ['contains', ['concat', value], 'x', { 'case-sensitive': false }],
    ]);
  });
});
