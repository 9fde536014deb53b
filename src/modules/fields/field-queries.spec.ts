import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseField } from '../../schema/field.entity';
import { keyParam, remappingSql, searchSql, startsWithPattern, summarySql } from './field-queries';

const table = { schema: 'public', name: 'PEOPLE' } as WarehouseTable;
const f = (name: string, base_type: string) => ({ name, base_type }) as WarehouseField;

describe('field warehouse SQL', () => {
  it('escapes LIKE wildcards so a search text matches only itself as a prefix', () => {
    expect(startsWithPattern('a')).toBe('a%');
    expect(startsWithPattern('100%_!x')).toBe('100!%!_!!x%');
    expect(startsWithPattern("' OR 1=1 --")).toBe("' OR 1=1 --%");
  });

  it('quotes names and leaves values to parameters', () => {
    const hostile = f('NA"ME', 'type/Text');
    expect(searchSql('postgres', table, f('ID', 'type/Integer'), hostile)).toBe(
      `SELECT DISTINCT "ID", "NA""ME" FROM "public"."PEOPLE" WHERE LOWER("NA""ME") LIKE LOWER(CAST(? AS TEXT)) ESCAPE '!' ORDER BY 2, 1`,
    );
    expect(searchSql('mysql', { schema: null, name: 'P`S' } as WarehouseTable, f('ID', 'type/Integer'), f('AGE', 'type/Integer'))).toBe(
      "SELECT DISTINCT `ID`, `AGE` FROM `P``S` WHERE LOWER(CAST(`AGE` AS CHAR)) LIKE LOWER(?) ESCAPE '!' ORDER BY 2, 1",
    );
    expect(remappingSql('sqlite', table, f('ID', 'type/Integer'), f('NAME', 'type/Text'))).toBe(
      'SELECT "ID", "NAME" FROM "public"."PEOPLE" WHERE "ID" = ?',
    );
    expect(summarySql('duckdb', table, f('NAME', 'type/Text'))).toBe('SELECT COUNT(*), COUNT(DISTINCT "NAME") FROM "public"."PEOPLE"');
    expect(summarySql('postgres', table, f('DOC', 'type/JSON'))).toBe('SELECT COUNT(*), NULL FROM "public"."PEOPLE"');
  });

  it('reads a remapping value as the key column type', () => {
    expect(keyParam(f('ID', 'type/Integer'), ' 12 ')).toBe(12);
    expect(keyParam(f('ID', 'type/BigInteger'), '9007199254740993')).toBe('9007199254740993');
    expect(keyParam(f('ID', 'type/Integer'), '1.5')).toBeNull();
    expect(keyParam(f('ID', 'type/Integer'), '1 OR 1=1')).toBeNull();
    expect(keyParam(f('P', 'type/Float'), '1.5e2')).toBe(150);
    expect(keyParam(f('P', 'type/Decimal'), 'NaN')).toBeNull();
    expect(keyParam(f('T', 'type/Text'), ' x ')).toBe(' x ');
  });
});
