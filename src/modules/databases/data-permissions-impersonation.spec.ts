import { ADMIN_ENTRY } from './data-permissions-graph';
import { impersonationPlan, withImpersonation } from './data-permissions-impersonation';
import { parseGraphEdit } from './data-permissions-parse';

const engines = new Map([
  [1, 'postgres'],
  [2, 'sqlite'],
]);
const plan = (body: Record<string, unknown>, existing: string[] = []) =>
  impersonationPlan(parseGraphEdit({ revision: 1, ...body }), new Set(existing), engines, [1, 2, 3, 4]);
const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('impersonationPlan', () => {
  it('stores a policy sent with view-data `impersonated`, replacing an existing one', () => {
    const body = {
      groups: { 3: { 1: { 'view-data': 'impersonated' } } },
      impersonations: [{ group_id: 3, db_id: 1, attribute: 'db_role' }],
    };
    expect(plan(body)).toEqual({ store: [{ group_id: 3, db_id: 1, attribute: 'db_role' }], remove: [] });
    expect(plan(body, ['3:1']).store).toHaveLength(1);
  });

  it('keeps a policy sent back as read, and removes it when the group is moved off `impersonated`', () => {
    expect(plan({ groups: { 3: { 1: { 'view-data': 'impersonated' } } } }, ['3:1'])).toEqual({ store: [], remove: [] });
    expect(plan({ groups: { 3: { 1: { 'view-data': 'unrestricted' } } } }, ['3:1']).remove).toEqual([{ group_id: 3, db_id: 1 }]);
    expect(plan({ groups: { 3: { 1: { data: 'no', native: 'none' } } } }, ['3:1']).remove).toEqual([{ group_id: 3, db_id: 1 }]);
    expect(plan({ groups: { 3: { 1: { 'view-data': 'blocked' } } } }).remove).toEqual([]);
  });

  it('refuses `impersonated` without a policy, a policy without `impersonated`, and engines without roles', () => {
    expect(message(() => plan({ groups: { 3: { 1: { 'view-data': 'impersonated' } } } }))).toMatch(/needs a policy in `impersonations`/);
    expect(message(() => plan({ groups: {}, impersonations: [{ group_id: 3, db_id: 1, attribute: 'r' }] }))).toMatch(
      /needs view-data `impersonated`/,
    );
    const on = (db: number, group = 3) =>
      plan({
        groups: { [group]: { [db]: { 'view-data': 'impersonated' } } },
        impersonations: [{ group_id: group, db_id: db, attribute: 'r' }],
      });
    expect(message(() => on(2))).toMatch(/not supported on sqlite databases/);
    expect(message(() => on(9))).toMatch(/database 9 does not exist/);
    expect(message(() => on(1, 2))).toMatch(/cannot be impersonated/);
  });
});

describe('withImpersonation', () => {
  it('shows data access under a policy as `impersonated`, and nothing else', () => {
    const entry = { ...ADMIN_ENTRY };
    expect(withImpersonation(entry, true)['view-data']).toBe('impersonated');
    expect(withImpersonation(entry, false)).toBe(entry);
    const blocked = { download: { schemas: 'none' as const }, data: 'no' as const, native: 'none' as const };
    expect(withImpersonation(blocked, true)).toBe(blocked);
  });
});
