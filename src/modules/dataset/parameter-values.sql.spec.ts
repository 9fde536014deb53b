import { WarehouseField } from '../fields/field.entity';
import { WarehouseTable } from '../tables/table.entity';
import { containsPattern, distinctValuesSql } from './parameter-values.sql';

describe('parameter value SQL', () => {
  const table = { schema: 'PUBLIC', name: 'PRODUCTS' } as WarehouseTable;
  const text = { name: 'TITLE', base_type: 'type/Text' } as WarehouseField;
  const num = { name: 'PRICE', base_type: 'type/Float' } as WarehouseField;

  it('escapes LIKE wildcards and lower-cases the search text', () => {
    expect(containsPattern('Chair')).toBe('%chair%');
    expect(containsPattern('50%_off!')).toBe('%50!%!_off!!%');
  });

  it('quotes names and binds the search text', () => {
    expect(distinctValuesSql('postgres', table, text, false)).toBe('SELECT DISTINCT "TITLE" FROM "PUBLIC"."PRODUCTS" WHERE "TITLE" IS NOT NULL ORDER BY 1');
    expect(distinctValuesSql('postgres', table, num, true)).toBe(`SELECT DISTINCT "PRICE" FROM "PUBLIC"."PRODUCTS" WHERE LOWER(CAST("PRICE" AS TEXT)) LIKE ? ESCAPE '!' ORDER BY 1`);
    expect(distinctValuesSql('mysql', table, num, true)).toContain('LOWER(CAST(`PRICE` AS CHAR)) LIKE ?');
    expect(distinctValuesSql('sqlite', { ...table, schema: null } as WarehouseTable, { name: 'a"b', base_type: 'type/Text' } as WarehouseField, false)).toBe(
      'SELECT DISTINCT "a""b" FROM "PRODUCTS" WHERE "a""b" IS NOT NULL ORDER BY 1',
    );
  });
});
