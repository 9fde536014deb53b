import type { EntityManager } from 'typeorm';
import { MessageError } from '../../common/errors/api-errors';
import type { MembershipsService } from '../permissions/memberships.service';
import type { User } from '../../schema/user.entity';
import { type UsersRepository } from '../users/users.repository';
import { ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import type { UsersService } from '../users/users.service';
import type { Tenant } from '../../schema/tenant.entity';
import type { TenantsService } from '../tenants/tenants.service';
import { ACCOUNT_DISABLED, NO_ACCOUNT, type SsoIdentity, type SsoPolicy, SsoUsersService } from './sso-users.service';

const TX = { tx: true } as unknown as EntityManager;
const ADMINS = 2;

function setup(
  existing: Partial<User> | null,
  groups: Array<{ group_id: number; is_group_manager: boolean }> = [],
  tenants?: Partial<Record<keyof TenantsService, jest.Mock>>,
) {
  const user = existing ? ({ id: 7, is_active: true, type: 'personal', first_name: 'Ann', last_name: 'Old', ...existing } as User) : null;
  const users = {
    transaction: jest.fn(async (work: (tx: EntityManager) => Promise<unknown>) => work(TX)),
    findByEmail: jest.fn(async () => user),
    update: jest.fn(async () => undefined),
    memberships: jest.fn(async (ids: number[]) => new Map(ids.map((id) => [id, groups]))),
  };
  const created = { id: 8, first_name: 'New' } as User;
  const usersService = { create: jest.fn(async () => created), recordLogin: jest.fn(async () => undefined) };
  // Group 9 was deleted since a mapping named it.
  const memberships = {
    existingGroupIds: jest.fn(async (ids: number[]) => new Set(ids.filter((id) => id !== 9))),
    setGroups: jest.fn(async () => undefined),
  };
  const service = new SsoUsersService(
    users as unknown as UsersRepository,
    usersService as unknown as UsersService,
    memberships as unknown as MembershipsService,
    tenants as unknown as TenantsService | undefined,
  );
  return { service, users, usersService, memberships, created };
}

const identity = (over: Partial<SsoIdentity> = {}): SsoIdentity => ({
  email: ' Ann@Example.com ',
  firstName: 'Ann',
  lastName: 'New',
  groups: [],
  attributes: {},
  ...over,
});
const policy = (over: Partial<SsoPolicy> = {}): SsoPolicy => ({
  source: 'saml',
  provisioning: true,
  groupSync: false,
  groupMappings: {},
  ...over,
});

describe('SsoUsersService', () => {
  it('finds the user by the trimmed email, refreshes names and the provider attributes, and records the login', async () => {
    // The admin's login attributes are never written by a sign-in (COMPAT "User attributes": jwt_attributes since v0.53).
    const { service, users, usersService } = setup({ login_attributes: { team: 'admin-set' }, jwt_attributes: { old: 'x' } });
    const user = await service.signIn(identity({ attributes: { team: 'north' } }), policy());
    expect(users.findByEmail).toHaveBeenCalledWith('Ann@Example.com', TX);
    expect(users.update).toHaveBeenCalledWith(7, { last_name: 'New', jwt_attributes: { team: 'north' } }, TX);
    expect(user).toMatchObject({ id: 7, last_name: 'New' });
    expect(usersService.recordLogin).toHaveBeenCalledWith(user);
  });

  it('writes nothing when nothing changed', async () => {
    const { service, users } = setup({ last_name: 'New' });
    await service.signIn(identity(), policy());
    const same = setup({ last_name: 'New', jwt_attributes: { team: ['a', 'b'] } });
    await same.service.signIn(identity({ attributes: { team: ['a', 'b'] } }), policy());
    expect(users.update).not.toHaveBeenCalled();
    expect(same.users.update).not.toHaveBeenCalled();
  });

  it('drops attributes the provider no longer sends, and keeps no value a filter cannot use', async () => {
    const { service, users } = setup({ last_name: 'New', jwt_attributes: { team: 'north' } });
    await service.signIn(identity({ attributes: { nested: { a: 1 }, none: null, '@tenant.slug': 'x' } }), policy());
    expect(users.update).toHaveBeenCalledWith(7, { jwt_attributes: null }, TX);
  });

  it('creates an unknown user only while provisioning is on, with the method as SSO source', async () => {
    const { service, usersService, created } = setup(null);
    await expect(service.signIn(identity({ attributes: { a: 1 } }), policy({ source: 'jwt' }))).resolves.toBe(created);
    expect(usersService.create).toHaveBeenCalledWith(
      { email: ' Ann@Example.com ', first_name: 'Ann', last_name: 'New', jwt_attributes: { a: 1 }, sso_source: 'jwt' },
      TX,
    );
    const off = setup(null);
    const err = await off.service.signIn(identity(), policy({ provisioning: false })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MessageError);
    expect((err as MessageError).status).toBe(401);
    expect((err as MessageError).message).toBe(NO_ACCOUNT);
    expect(off.usersService.create).not.toHaveBeenCalled();
  });

  it('refuses a deactivated account, and one that is not a person (an API key user)', async () => {
    for (const over of [{ is_active: false }, { type: 'api-key' }]) {
      const { service, usersService } = setup(over as Partial<User>);
      await expect(service.signIn(identity(), policy())).rejects.toThrow(ACCOUNT_DISABLED);
      expect(usersService.recordLogin).not.toHaveBeenCalled();
    }
  });

  it('syncs only the groups some mapping names: joins the mapped ones, leaves the others, keeps the rest', async () => {
    const current = [
      { group_id: ALL_USERS_GROUP_ID, is_group_manager: false },
      { group_id: ADMINS, is_group_manager: false },
      { group_id: 4, is_group_manager: true },
      { group_id: 5, is_group_manager: false },
    ];
    const { service, memberships } = setup({}, current);
    const mappings = { analysts: [3, 4], finance: [5], old: [9] };
    await service.signIn(identity({ groups: ['analysts', 'old', 'unmapped'] }), policy({ groupSync: true, groupMappings: mappings }));
    expect(memberships.existingGroupIds).toHaveBeenCalledWith([3, 4, 9], TX);
    // Administrators (no mapping names it) stays; 4 keeps its manager flag; 5 is left; 9 (deleted) is skipped.
    expect(memberships.setGroups).toHaveBeenCalledWith(
      expect.objectContaining({ id: 7 }),
      [
        { id: ADMINS, is_group_manager: false },
        { id: 4, is_group_manager: true },
        { id: 3, is_group_manager: false },
      ],
      TX,
    );
  });

  it('leaves memberships alone when they already match, when no mapping is set, or when sync is off', async () => {
    const current = [
      { group_id: ALL_USERS_GROUP_ID, is_group_manager: false },
      { group_id: 3, is_group_manager: false },
    ];
    for (const p of [
      policy({ groupSync: true, groupMappings: { analysts: [3] } }),
      policy({ groupSync: true, groupMappings: {} }),
      policy({ groupSync: false, groupMappings: { other: [6] } }),
    ]) {
      const { service, memberships } = setup({}, current);
      await service.signIn(identity({ groups: ['analysts', 'other'] }), p);
      expect(memberships.setGroups).not.toHaveBeenCalled();
    }
  });

  describe('with tenants', () => {
    const acme = { id: 4, slug: 'acme', is_active: true, group_id: 12 } as Tenant;
    const tenants = (over: Partial<Tenant> = {}) => ({
      enabled: jest.fn(async () => true),
      byId: jest.fn(async () => ({ ...acme, ...over })),
      findOrCreate: jest.fn(async () => ({ ...acme, ...over })),
      groupsOf: jest.fn(async () => [11, 12]),
    });
    const claim = (value: unknown) => identity({ tenant: { claim: '@tenant', value } });

    it("creates a new user in the claim's tenant (made on first use), in the tenant groups only", async () => {
      const t = tenants();
      const { service, usersService } = setup(null, [], t);
      await service.signIn(claim('acme'), policy());
      expect(t.findOrCreate).toHaveBeenCalledWith(TX, 'acme');
      expect(usersService.create).toHaveBeenCalledWith(expect.objectContaining({ tenant_id: 4, group_ids: [11, 12] }), TX);
    });

    it('refuses with 403 what COMPAT lists, before the account state', async () => {
      const refused = async (existing: Partial<User> | null, value: unknown, message: string, t = tenants()) => {
        const err = await setup(existing, [], t)
          .service.signIn(claim(value), policy())
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(MessageError);
        expect([(err as MessageError).status, (err as MessageError).message]).toEqual([403, message]);
      };
      await refused({ tenant_id: null }, 'acme', 'Cannot add tenant claim to internal user');
      await refused({ tenant_id: 4 }, undefined, 'Tenant claim required for external user');
      await refused({ tenant_id: 4 }, 'globex', 'Tenant ID mismatch with existing user');
      await refused({ tenant_id: 4, is_active: false }, 'acme', 'Tenant is not active', tenants({ is_active: false }));
      await refused(null, 'acme', 'Tenants and tenant users are disabled.', { ...tenants(), enabled: jest.fn(async () => false) });
    });

    it('tries once more when a concurrent first sign-in made the tenant meanwhile', async () => {
      const t = tenants();
      t.findOrCreate.mockRejectedValueOnce(new MessageError('This tenant name or slug is already taken.'));
      const { service, users, usersService } = setup(null, [], t);
      await service.signIn(claim('acme'), policy());
      expect(users.transaction).toHaveBeenCalledTimes(2);
      expect(usersService.create).toHaveBeenCalledTimes(1);
      expect(usersService.recordLogin).toHaveBeenCalledTimes(1);
    });

    it('lets an internal user in without a claim and keeps the tenant claim out of the new user', async () => {
      const t = tenants();
      const { service, usersService } = setup(null, [], t);
      await service.signIn(claim(undefined), policy());
      expect(usersService.create).toHaveBeenCalledWith(expect.not.objectContaining({ tenant_id: expect.anything() }), TX);
      expect(t.findOrCreate).not.toHaveBeenCalled();
    });
  });
});
