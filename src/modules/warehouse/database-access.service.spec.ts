import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError } from '../../common/errors/api-errors';
import { accessIn, DatabaseAccessService } from './database-access.service';
import type { DatabasePermissionsRepository } from './database-permissions.repository';

/** DatabaseAccessService: admins may do everything; others get the best grant of their groups, per database. */
describe('DatabaseAccessService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 7, isSuperuser: false, groupIds: [1, 5] } as unknown as AuthUser;
  const grants = [
    { group_id: 1, db_id: 1, data: 'unrestricted', native: 'none', download: 'limited' },
    { group_id: 5, db_id: 1, data: 'unrestricted', native: 'write', download: 'full' },
    { group_id: 1, db_id: 2, data: 'unrestricted', native: 'none', download: 'none' },
    // A native grant without data access gives no native access.
    { group_id: 5, db_id: 3, data: 'no', native: 'write', download: 'full' },
  ];

  function setup() {
    const perms = {
      forGroups: jest.fn(async (groups: number[], db?: number) =>
        grants.filter((g) => groups.includes(g.group_id) && (db === undefined || g.db_id === db)),
      ),
    };
    return { service: new DatabaseAccessService(perms as unknown as DatabasePermissionsRepository), perms };
  }

  it('combines the groups of a user into the most generous access, and none where no group has any', async () => {
    const m = setup();
    await expect(m.service.accessTo(user, 1)).resolves.toEqual({ data: 'unrestricted', native: 'write', download: 'full' });
    await expect(m.service.accessTo(user, 2)).resolves.toEqual({ data: 'unrestricted', native: 'none', download: 'none' });
    await expect(m.service.accessTo(user, 3)).resolves.toEqual({ data: 'no', native: 'none', download: 'none' });
    await expect(m.service.accessTo(user, 9)).resolves.toEqual({ data: 'no', native: 'none', download: 'none' });
    const map = await m.service.accessMap(user);
    expect(accessIn(map, 2).data).toBe('unrestricted');
    expect(accessIn(map, 9).data).toBe('no');
  });

  it('answers everything for admins without reading grants', async () => {
    const m = setup();
    await expect(m.service.accessMap(admin)).resolves.toBe('all');
    await expect(m.service.accessTo(admin, 9)).resolves.toEqual({ data: 'unrestricted', native: 'write', download: 'full' });
    expect(accessIn('all', 9).native).toBe('write');
    expect(m.perms.forGroups).not.toHaveBeenCalled();
  });

  it('refuses reading without data access and SQL without native write', async () => {
    const m = setup();
    await expect(m.service.assertCanRead(user, 2)).resolves.toBeUndefined();
    await expect(m.service.assertCanRead(user, 3)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.assertCanRunNative(user, 2)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.assertCanRunNative(user, 1)).resolves.toBeUndefined();
  });
});
