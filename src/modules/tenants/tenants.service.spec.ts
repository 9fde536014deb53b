import type { EntityManager } from 'typeorm';
import { MessageError, ValidationError } from '../../common/errors/api-errors';
import type { AuthUser } from '../../common/auth/current-user';
import type { ClusterEvents } from '../../common/cluster/cluster-events';
import type { Tenant } from '../../schema/tenant.entity';
import type { TenantCollectionsService } from '../collections';
import type { SettingsService } from '../settings';
import { TENANT_MSG } from './tenant-rules';
import type { TenantsRepository } from './tenants.repository';
import { TenantsService } from './tenants.service';

const TX = { tx: true } as unknown as EntityManager;
const ADMIN = { id: 1, isSuperuser: true, groupIds: [2] } as AuthUser;

/** TenantsService with its repository, settings and collections mocked. */
function setup(over: { tenantUsers?: number; existingGroups?: string[]; taken?: boolean } = {}) {
  let hook: ((value: unknown) => Promise<void>) | undefined;
  const tenant = { id: 5, name: 'Acme', slug: 'acme', is_active: true, attributes: null, tenant_collection_id: 30, group_id: 12 } as Tenant;
  const repo = {
    transaction: jest.fn(async (work: (tx: EntityManager) => Promise<unknown>) => work(TX)),
    activeTenantUserCount: jest.fn(async () => over.tenantUsers ?? 0),
    groupByMagic: jest.fn(async () => null),
    groupByName: jest.fn(async (name: string) => ((over.existingGroups ?? []).includes(name) ? { id: 99, name } : null)),
    insertGroup: jest.fn(async () => 11),
    renameGroup: jest.fn(async () => undefined),
    taken: jest.fn(async () => over.taken ?? false),
    insert: jest.fn(async () => 5),
    update: jest.fn(async () => undefined),
    byId: jest.fn(async () => tenant),
    memberCounts: jest.fn(async () => new Map([[5, 3]])),
    setUsersActive: jest.fn(async () => [7, 8]),
  };
  const settings = { onWrite: jest.fn((_key: string, h: (value: unknown) => Promise<void>) => (hook = h)) };
  const collections = { create: jest.fn(async () => 30), rename: jest.fn(), setArchived: jest.fn(async () => undefined) };
  const events = { publish: jest.fn(async () => undefined) };
  const service = new TenantsService(
    repo as unknown as TenantsRepository,
    settings as unknown as SettingsService,
    collections as unknown as TenantCollectionsService,
    events as unknown as ClusterEvents,
  );
  service.onModuleInit();
  return { service, repo, settings, collections, events, write: (value: unknown) => hook!(value) };
}

describe('TenantsService', () => {
  it('turning tenants on makes All tenant users and names All Users as internal users', async () => {
    const m = setup();
    expect(m.settings.onWrite).toHaveBeenCalledWith('use-tenants', expect.any(Function));
    await m.write(true);
    expect(m.repo.insertGroup).toHaveBeenCalledWith(TX, 'All tenant users', 'all-external-users');
    expect(m.repo.renameGroup).toHaveBeenCalledWith(TX, 1, 'All internal users');
  });

  it('refuses to turn tenants off while tenant users are active, and renames All Users back otherwise', async () => {
    await expect(setup({ tenantUsers: 2 }).write(false)).rejects.toThrow(TENANT_MSG.turnOff);
    const m = setup();
    await m.write(null);
    expect(m.repo.renameGroup).toHaveBeenCalledWith(TX, 1, 'All Users');
    // An admin's own group holding the name leaves All Users as it is.
    const held = setup({ existingGroups: ['All internal users'] });
    await held.write(true);
    expect(held.repo.renameGroup).not.toHaveBeenCalled();
  });

  it('creates a tenant with its group and a collection granted to that group, and refuses a taken name or slug', async () => {
    const m = setup();
    await expect(m.service.create({ name: ' Acme ', slug: 'acme', attributes: { plan: 'gold' } })).resolves.toMatchObject({
      id: 5,
      member_count: 3,
    });
    expect(m.repo.insert).toHaveBeenCalledWith(TX, { name: 'Acme', slug: 'acme', attributes: { plan: 'gold' } });
    expect(m.repo.insertGroup).toHaveBeenCalledWith(TX, 'Tenant users: acme', null);
    expect(m.collections.create).toHaveBeenCalledWith(TX, 'Acme', 11);
    expect(m.repo.update).toHaveBeenCalledWith(TX, 5, { group_id: 11, tenant_collection_id: 30 });
    await expect(setup({ taken: true }).service.create({ name: 'Acme', slug: 'acme' })).rejects.toThrow(new MessageError(TENANT_MSG.taken));
  });

  it('refuses attributes in the system namespace or that no policy can use', async () => {
    const m = setup();
    await expect(m.service.create({ name: 'A', slug: 'a', attributes: { '@tenant.slug': 'x' } })).rejects.toBeInstanceOf(ValidationError);
    await expect(m.service.create({ name: 'A', slug: 'a', attributes: { nested: { a: 1 } } })).rejects.toBeInstanceOf(ValidationError);
    expect(m.repo.insert).not.toHaveBeenCalled();
  });

  it('deactivation deactivates the users, archives the collection as the admin, and tells the other instances', async () => {
    const m = setup();
    await m.service.update(ADMIN, 5, { is_active: false });
    expect(m.repo.update).toHaveBeenCalledWith(TX, 5, { is_active: false });
    expect(m.repo.setUsersActive).toHaveBeenCalledWith(TX, 5, false);
    expect(m.collections.setArchived).toHaveBeenCalledWith(ADMIN, 30, true);
    expect(m.events.publish.mock.calls).toEqual([[{ topic: 'user', id: 7 }], [{ topic: 'user', id: 8 }]]);
    // Sending the state it has changes nothing.
    const same = setup();
    await same.service.update(ADMIN, 5, { is_active: true, name: 'Acme' });
    expect(same.repo.setUsersActive).not.toHaveBeenCalled();
    expect(same.repo.update).not.toHaveBeenCalled();
    expect(same.collections.setArchived).not.toHaveBeenCalled();
  });
});
