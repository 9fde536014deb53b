import { MessageError } from '../../common/errors/api-errors';
import { assertCreatable, assertUpdatable, OPEN, scopeCondition, type RowScope } from './row-scope';

const scope: RowScope = {
  kind: 'filtered',
  filters: [
    [
      { column: 'owner', values: [3, 4] },
      { column: 'region', values: ['N'] },
    ],
    [{ column: 'team', values: [] }],
  ],
};
const col = (name: string) => ({ name });

describe('row scope of an implicit action', () => {
  it('is a WHERE condition with bound values: any filter, every condition; a condition without values matches nothing', () => {
    expect(scopeCondition('postgres', scope)).toEqual({
      sql: '(("owner" IN (?, ?) AND "region" IN (?)) OR (1 = 0))',
      params: [3, 4, 'N'],
    });
    expect(scopeCondition('mysql', { kind: 'filtered', filters: [[{ column: 'a`b', values: ['x'] }]] })?.sql).toBe('((`a``b` IN (?)))');
    expect(scopeCondition('sqlite', OPEN)).toBeNull();
  });

  it('creates a row only when some filter holds for the values given (text values compare with numbers)', () => {
    expect(() =>
      assertCreatable(scope, [
        { col: col('owner'), value: '3' },
        { col: col('region'), value: 'N' },
      ]),
    ).not.toThrow();
    expect(() => assertCreatable(scope, [{ col: col('owner'), value: 3 }])).toThrow(MessageError);
    expect(() =>
      assertCreatable(scope, [
        { col: col('owner'), value: 5 },
        { col: col('region'), value: 'N' },
      ]),
    ).toThrow(/owner, region, team/);
    expect(() => assertCreatable(OPEN, [])).not.toThrow();
  });

  it("updates a filtered column only to one of the user's values", () => {
    expect(() =>
      assertUpdatable(scope, [
        { col: col('owner'), value: 4 },
        { col: col('qty'), value: 9 },
      ]),
    ).not.toThrow();
    expect(() => assertUpdatable(scope, [{ col: col('region'), value: 'S' }])).toThrow(/set region to one of your values/);
  });
});
