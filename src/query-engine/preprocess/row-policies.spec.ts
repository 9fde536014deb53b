import { PreprocessError } from './context';
import { attributeValues, restrictionFilter, type RowCondition, type TableRestriction } from './row-policies';

const cond = (value: unknown, baseType = 'type/Integer'): RowCondition => ({
  fieldId: 7,
  column: 'USER_ID',
  baseType,
  attribute: 'uid',
  value,
});
const ref = (id: number) => ['field', id, null];

describe('attributeValues', () => {
  it('parses a string attribute on an integer column, and takes a list as several values', () => {
    expect(attributeValues(cond('42'))).toEqual([42]);
    expect(attributeValues(cond([1, '2']))).toEqual([1, 2]);
    expect(attributeValues(cond('1.5', 'type/Float'))).toEqual([1.5]);
    expect(attributeValues(cond(3, 'type/Text'))).toEqual(['3']);
  });

  it('refuses a missing attribute, and one that does not parse, rather than dropping the filter', () => {
    expect(() => attributeValues(cond(undefined))).toThrow(new PreprocessError('Query requires user attribute `uid`'));
    expect(() => attributeValues(cond(null))).toThrow('Query requires user attribute `uid`');
    expect(() => attributeValues(cond('12abc'))).toThrow(/is not an integer, as column USER_ID needs/);
    expect(() => attributeValues(cond('1.5'))).toThrow(/is not an integer/);
    expect(() => attributeValues(cond({ a: 1 }, 'type/Text'))).toThrow(/cannot be compared/);
  });
});

describe('restrictionFilter', () => {
  const table = (filters: TableRestriction['filters'], refusal?: string): TableRestriction => ({
    tableId: 1,
    groups: filters.map((f) => f.group),
    filters,
    ...(refusal ? { refusal } : {}),
  });

  it('is one equality for one policy, AND within a policy, OR between policies', () => {
    expect(restrictionFilter(table([{ group: 'A', conditions: [cond(['1', '2'])] }]), ref)).toEqual(['=', ref(7), 1, 2]);
    const two = { ...cond('x', 'type/Text'), fieldId: 8, attribute: 'region' };
    expect(
      restrictionFilter(
        table([
          { group: 'A', conditions: [cond('1'), two] },
          { group: 'B', conditions: [cond('5')] },
        ]),
        ref,
      ),
    ).toEqual(['or', ['and', ['=', ref(7), 1], ['=', ref(8), 'x']], ['=', ref(7), 5]]);
  });

  it('matches nothing for an empty list, and everything when one policy has no conditions', () => {
    expect(restrictionFilter(table([{ group: 'A', conditions: [cond([])] }]), ref)).toEqual([
      'and',
      ['is-null', ref(7)],
      ['not-null', ref(7)],
    ]);
    expect(
      restrictionFilter(
        table([
          { group: 'A', conditions: [cond('1')] },
          { group: 'B', conditions: [] },
        ]),
        ref,
      ),
    ).toBeNull();
  });

  it('fails with the refusal of a policy that cannot be applied', () => {
    expect(() => restrictionFilter(table([], 'cannot apply'), ref)).toThrow('cannot apply');
  });
});
