import {
  CONFLICTING_POLICIES,
  DEFAULT_ROLE,
  impersonatedRole,
  INVALID_ROLE,
  MISSING_ATTRIBUTE,
  SEVERAL_POLICIES,
  type ImpersonationInput,
} from './impersonation-rules';

const input = (extra: Partial<ImpersonationInput> = {}): ImpersonationInput => ({
  policies: [{ group_id: 3, attribute: 'db_role' }],
  readers: [3],
  attributes: { db_role: 'sales_eu' },
  defaultRole: 'metabase',
  sandboxed: false,
  ...extra,
});

describe('impersonatedRole', () => {
  it("is the attribute's value for a user whose reading groups all have a policy", () => {
    expect(impersonatedRole(input())).toBe('sales_eu');
    expect(impersonatedRole(input({ policies: [...input().policies, { group_id: 4, attribute: 'db_role' }], readers: [3, 4] }))).toBe(
      'sales_eu',
    );
  });

  it('is lifted by another group with data access and no policy; ignores policies of groups without access', () => {
    expect(impersonatedRole(input({ readers: [3, 5] }))).toBeNull();
    expect(impersonatedRole(input({ readers: [5] }))).toBeNull();
    expect(impersonatedRole(input({ policies: [] }))).toBeNull();
  });

  it('fails closed when the role cannot be known', () => {
    expect(() => impersonatedRole(input({ attributes: {} }))).toThrow(MISSING_ATTRIBUTE);
    expect(() => impersonatedRole(input({ attributes: { db_role: null } }))).toThrow(MISSING_ATTRIBUTE);
    for (const bad of ['', '  ', ['a', 'b'], ['a'], 7, { x: 1 }])
      expect(() => impersonatedRole(input({ attributes: { db_role: bad } }))).toThrow(INVALID_ROLE);
    expect(() => impersonatedRole(input({ attributes: { db_role: 'metabase' } }))).toThrow(DEFAULT_ROLE);
  });

  it('refuses a row security policy on the same database, and two policies naming different attributes', () => {
    expect(() => impersonatedRole(input({ sandboxed: true }))).toThrow(CONFLICTING_POLICIES);
    const two = input({ policies: [...input().policies, { group_id: 4, attribute: 'other' }], readers: [3, 4] });
    expect(() => impersonatedRole(two)).toThrow(SEVERAL_POLICIES);
  });
});
