import type { AuthUser } from '../../common/auth/current-user';
import type { SharedGrant } from '../../common/auth/shared-grant';
import type { ImpersonationRepository } from './impersonation.repository';
import type { RowPoliciesRepository } from './row-policies.repository';
import { RowSecurityService } from './row-security.service';
import type { UserAttributes } from './user-attributes';

const user: AuthUser = { id: 5, isSuperuser: false, groupIds: [3] };
const ORDERS_POLICY = { id: 1, group_id: 3, group_name: 'Sales', table_id: 10, card_id: null, attribute_remappings: { uid: 'USER_ID' } };

function setup(attributes: Record<string, unknown> = { uid: '7' }) {
  const repo = {
    forGroups: jest.fn().mockResolvedValue([ORDERS_POLICY]),
    unrestrictedGroups: jest.fn().mockResolvedValue([3]),
    fields: jest.fn().mockResolvedValue([{ id: 101, table_id: 10, name: 'USER_ID', base_type: 'type/Integer' }]),
  };
  const attrs = { attributesOf: jest.fn().mockResolvedValue(attributes) };
  const service = new RowSecurityService(repo as unknown as RowPoliciesRepository, attrs as unknown as UserAttributes);
  return { service, repo, attrs };
}

describe('RowSecurityService', () => {
  it("resolves a user's restrictions once per database and run, attributes read once", async () => {
    const { service, repo, attrs } = setup();
    const policies = service.policiesFor(user);
    const first = await policies.restrictions(1);
    expect([...first.keys()]).toEqual([10]);
    await policies.restrictions(1);
    await policies.key(1);
    expect(repo.forGroups).toHaveBeenCalledTimes(1);
    expect(attrs.attributesOf).toHaveBeenCalledTimes(1);
    expect(attrs.attributesOf).toHaveBeenCalledWith(5);
  });

  it('restricts neither admins nor shared objects, without reading anything', async () => {
    const { service, repo } = setup();
    expect((await service.policiesFor({ ...user, isSuperuser: true }).restrictions(1)).size).toBe(0);
    const shared = { shared: { via: 'public', model: 'card', id: 1 } } as unknown as SharedGrant;
    expect(await service.policiesFor(shared).key(1)).toBe('');
    expect(repo.forGroups).not.toHaveBeenCalled();
  });

  it("keys results by the user's attribute values", async () => {
    const a = await setup({ uid: '7' }).service.policiesFor(user).key(1);
    const b = await setup({ uid: '8' }).service.policiesFor(user).key(1);
    expect(a).not.toBe('');
    expect(a).not.toBe(b);
  });

  it('tells which tables it restricts, and which fields a question policy shows', async () => {
    const { service, repo } = setup();
    expect(await service.restricts(user, 1, 10)).toBe(true);
    expect(await service.restricts(user, 1, 11)).toBe(false);
    expect(await service.visibleFields(user, 1, 10)).toBeNull();
    repo.forGroups.mockResolvedValue([
      { ...ORDERS_POLICY, card_id: 4, card_query: { type: 'query', query: { 'source-table': 10, fields: [['field', 101, null]] } } },
    ]);
    expect(await service.visibleFields(user, 1, 10)).toEqual(new Set([101]));
  });
});

describe('RowSecurityService with impersonation', () => {
  it('counts every table as restricted for a user an impersonation policy applies to, unless another group lifts it', async () => {
    const repo = { forGroups: jest.fn().mockResolvedValue([]), unrestrictedGroups: jest.fn().mockResolvedValue([3]) };
    const impersonations = { forGroups: jest.fn().mockResolvedValue([{ id: 1, group_id: 3, db_id: 1, attribute: 'db_role' }]) };
    const service = new RowSecurityService(
      repo as unknown as RowPoliciesRepository,
      { attributesOf: jest.fn() } as unknown as UserAttributes,
      impersonations as unknown as ImpersonationRepository,
    );
    expect(await service.restricts(user, 1, 10)).toBe(true);
    expect(await service.restrictsAny(user, 1)).toBe(true);
    expect(await service.restrictsAny({ ...user, isSuperuser: true }, 1)).toBe(false);
    repo.unrestrictedGroups.mockResolvedValue([3, 4]);
    expect(await service.restrictsAny({ ...user, groupIds: [3, 4] }, 1)).toBe(false);
  });
});
