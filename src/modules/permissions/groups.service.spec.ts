import type { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ForbiddenError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { PermissionsGroup } from '../../schema/permissions-group.entity';
import { GroupsService } from './groups.service';
import type { PermissionsRepository } from './permissions.repository';

/** GroupsService: who sees which groups, unique names, and the built-in groups that cannot change. */
describe('GroupsService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const user = { id: 7, isSuperuser: false, groupIds: [] } as unknown as AuthUser;
  const group = (id: number, name: string, magic: string | null = null) => ({ id, name, magic_group_type: magic }) as PermissionsGroup;
  const groups = [group(1, 'All Users', 'all-internal-users'), group(2, 'Administrators', 'admin'), group(5, 'Analysts'), group(6, 'Ops')];

  function setup(managed: number[] = []) {
    const repo = {
      transaction: jest.fn(async (work: (tx: EntityManager) => unknown) => work('tx' as unknown as EntityManager)),
      groupsWithCounts: jest.fn(async (ids?: number[]) =>
        groups.filter((g) => !ids || ids.includes(g.id)).map((g) => ({ ...g, member_count: 1 })),
      ),
      managedGroupIds: jest.fn().mockResolvedValue(managed),
      findGroupByName: jest.fn(async (name: string) => groups.find((g) => g.name === name) ?? null),
      findGroup: jest.fn(async (id: number) => groups.find((g) => g.id === id) ?? null),
      insertGroup: jest.fn().mockResolvedValue(9),
      renameGroup: jest.fn().mockResolvedValue(true),
      deleteGroup: jest.fn().mockResolvedValue(undefined),
      members: jest.fn().mockResolvedValue([]),
    };
    return { service: new GroupsService(repo as unknown as PermissionsRepository), repo };
  }
  const message = async (p: Promise<unknown>) => ((await p.catch((x: unknown) => x)) as MessageError).message;

  it('lists every group to admins, the managed ones to group managers, and refuses anyone else', async () => {
    expect((await setup().service.list(admin)).map((g) => g.id)).toEqual([1, 2, 5, 6]);
    expect((await setup([6]).service.list(user)).map((g) => g.id)).toEqual([6]);
    await expect(setup([]).service.list(user)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('keeps group names unique, on creation and rename, but lets a group keep its own', async () => {
    const m = setup();
    expect(await message(m.service.create('Analysts'))).toBe('A group with that name already exists.');
    expect(m.repo.insertGroup).not.toHaveBeenCalled();
    expect(await message(m.service.rename(6, 'Analysts'))).toBe('A group with that name already exists.');
    await m.service.rename(5, 'Analysts');
    expect(m.repo.renameGroup).toHaveBeenCalledWith(5, 'Analysts', 'tx');
    // A concurrent insert that took the name answers the same.
    m.repo.insertGroup.mockResolvedValue(undefined);
    expect(await message(m.service.create('New'))).toBe('A group with that name already exists.');
  });

  it('never renames or deletes the built-in groups, and 404s unknown ones', async () => {
    const m = setup();
    expect(await message(m.service.delete(1))).toBe("You cannot edit or delete the 'All Users' permissions group.");
    expect(await message(m.service.rename(2, 'Admins'))).toBe("You cannot edit or delete the 'Administrators' permissions group.");
    await expect(m.service.delete(99)).rejects.toBeInstanceOf(NotFoundError);
    expect(m.repo.deleteGroup).not.toHaveBeenCalled();
    await m.service.delete(5);
    expect(m.repo.deleteGroup).toHaveBeenCalledWith(5, 'tx');
    await expect(m.service.get(99)).rejects.toBeInstanceOf(NotFoundError);
  });
});
