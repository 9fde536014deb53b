import type { AuthUser } from '../../common/auth/current-user';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { MISSING_ATTRIBUTE } from './impersonation-rules';
import type { ImpersonationRepository } from './impersonation.repository';
import { ImpersonationService } from './impersonation.service';
import type { RowPoliciesRepository } from './row-policies.repository';
import type { UserAttributes } from './user-attributes';

const user: AuthUser = { id: 5, isSuperuser: false, groupIds: [3] };

function setup(attributes: Record<string, unknown> = { db_role: 'sales' }) {
  const repo = { forGroups: jest.fn().mockResolvedValue([{ id: 1, group_id: 3, db_id: 1, attribute: 'db_role' }]) };
  const policies = { unrestrictedGroups: jest.fn().mockResolvedValue([3]) };
  const attrs = { attributesOf: jest.fn().mockResolvedValue(attributes) };
  const service = new ImpersonationService(
    repo as unknown as ImpersonationRepository,
    policies as unknown as RowPoliciesRepository,
    attrs as unknown as UserAttributes,
  );
  const ctx = { sandboxed: jest.fn().mockResolvedValue(false), defaultRole: jest.fn().mockResolvedValue('metabase') };
  return { service, repo, ctx };
}

describe('ImpersonationService.impersonationFor', () => {
  it("resolves a user's role once per database and run, and keys results by it", async () => {
    const { service, repo, ctx } = setup();
    const caller = service.impersonationFor(user, ctx);
    expect(await caller.role(1)).toBe('sales');
    expect(await caller.key(1)).toBe(JSON.stringify(['role', 'sales']));
    expect(repo.forGroups).toHaveBeenCalledTimes(1);
    expect(await setup({ db_role: 'ops' }).service.impersonationFor(user, ctx).key(1)).not.toBe(await caller.key(1));
  });

  it('impersonates neither admins nor shared objects, without reading anything', async () => {
    const { service, repo, ctx } = setup();
    expect(await service.impersonationFor({ ...user, isSuperuser: true }, ctx).role(1)).toBeNull();
    const shared = { shared: { via: 'public', model: 'card', id: 1 } } as unknown as SharedGrant;
    expect(await service.impersonationFor(shared, ctx).key(1)).toBe('');
    expect(repo.forGroups).not.toHaveBeenCalled();
  });

  it('rejects the role of a policy that cannot be applied, while its key stays a value of its own', async () => {
    const { service, ctx } = setup({});
    const caller = service.impersonationFor(user, ctx);
    expect(await caller.key(1)).toBe(JSON.stringify(['role-error', MISSING_ATTRIBUTE]));
    await expect(caller.role(1)).rejects.toThrow(MISSING_ATTRIBUTE);
  });
});
