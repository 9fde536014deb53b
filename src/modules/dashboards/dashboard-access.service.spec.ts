import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, NotFoundError } from '../../common/errors/api-errors';
import type { CollectionPerm } from '../../schema/collection-permission.entity';
import type { CollectionAccessService, CollectionPlace } from '../collections';
import { DashboardAccessService } from './dashboard-access.service';
import type { DashboardsRepository } from './dashboards.repository';

/** DashboardAccessService: a dashboard's collection decides what the caller may do with it. */
describe('DashboardAccessService', () => {
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const perms: Record<string, CollectionPerm | null> = { root: 'read', '1': 'write', '2': null };
  const permOf = (p: CollectionPlace | null) => perms[p === null ? 'root' : String(p.id)] ?? null;

  function setup() {
    const dashboards = {
      row: jest.fn(async (id: number) =>
        id === 99 ? null : { id, collection_id: id === 10 ? null : id, coll_location: '/', coll_personal_owner_id: null },
      ),
      collectionPlace: jest.fn(async (id: number) => (String(id) in perms ? { id, location: '/', personal_owner_id: null } : null)),
    };
    const collections = {
      permission: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => permOf(p)),
      assertWrite: jest.fn(async (_u: AuthUser, p: CollectionPlace | null) => {
        if (permOf(p) !== 'write') throw new ForbiddenError();
      }),
    };
    return new DashboardAccessService(dashboards as unknown as DashboardsRepository, collections as unknown as CollectionAccessService);
  }

  it('reads and writes as the collection allows, Root included, and 404s what does not exist', async () => {
    const access = setup();
    await expect(access.readable(user, 10)).resolves.toMatchObject({ perm: 'read' });
    await expect(access.writable(user, 10)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(access.writable(user, 1)).resolves.toMatchObject({ id: 1 });
    await expect(access.readable(user, 2)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(access.readable(user, 99)).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.assertWriteCollection(user, 1)).resolves.toBeUndefined();
    await expect(access.assertWriteCollection(user, 77)).rejects.toBeInstanceOf(NotFoundError);
    await expect(access.assertWriteCollection(user, null)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
