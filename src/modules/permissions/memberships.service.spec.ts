import type { EntityManager } from 'typeorm';
import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import type { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import type { User } from '../../schema/user.entity';
import { LAST_ADMIN_MESSAGE, MembershipsService } from './memberships.service';
import type { PermissionsRepository } from './permissions.repository';

/** MembershipsService's rules (All Users, Administrators and is_superuser, the last admin) over in-memory memberships. */
describe('MembershipsService', () => {
  const tx = 'tx' as unknown as EntityManager;
  const ANALYSTS = 5;
  const OPS = 6;
  const user = (over: Partial<User> = {}) => ({ id: 7, type: 'personal', is_active: true, is_superuser: false, ...over }) as User;

  function setup(groupsOf: Record<number, number[]> = { 7: [ALL_USERS_GROUP_ID, ANALYSTS] }, activeAdmins = 2, users: User[] = [user()]) {
    let next = 100;
    const rows: PermissionsGroupMembership[] = [];
    for (const [uid, gids] of Object.entries(groupsOf))
      for (const g of gids)
        rows.push({ id: next++, user_id: Number(uid), group_id: g, is_group_manager: false } as PermissionsGroupMembership);
    const superuser = new Map<number, boolean>();
    const repo = {
      transaction: jest.fn(async (work: (t: EntityManager) => unknown) => work(tx)),
      existingGroupIds: jest.fn(
        async (ids: number[]) => new Set(ids.filter((id) => [ADMIN_GROUP_ID, ALL_USERS_GROUP_ID, ANALYSTS, OPS].includes(id))),
      ),
      membershipsOf: jest.fn(async (uid: number) => rows.filter((r) => r.user_id === uid).map((r) => ({ ...r }))),
      insertMembership: jest.fn(async (uid: number, gid: number, manager: boolean) => {
        if (rows.some((r) => r.user_id === uid && r.group_id === gid)) return false;
        rows.push({ id: next++, user_id: uid, group_id: gid, is_group_manager: manager } as PermissionsGroupMembership);
        return true;
      }),
      deleteMembership: jest.fn(
        async (id: number) =>
          void rows.splice(
            rows.findIndex((r) => r.id === id),
            1,
          ),
      ),
      setGroupManager: jest.fn(async (id: number, manager: boolean) => void (rows.find((r) => r.id === id)!.is_group_manager = manager)),
      setSuperuser: jest.fn(async (uid: number, flag: boolean) => void superuser.set(uid, flag)),
      lockActiveAdminCount: jest.fn().mockResolvedValue(activeAdmins),
      findGroup: jest.fn(async (id: number) => ({ id })),
      findUser: jest.fn(async (id: number) => users.find((u) => u.id === id) ?? null),
      findMembership: jest.fn(async (id: number) => rows.find((r) => r.id === id) ?? null),
      members: jest.fn(async (gid: number) => rows.filter((r) => r.group_id === gid)),
    };
    const events = { publish: jest.fn().mockResolvedValue(undefined) };
    const service = new MembershipsService(repo as unknown as PermissionsRepository, events as unknown as ClusterEvents);
    const groups = (uid = 7) =>
      rows
        .filter((r) => r.user_id === uid)
        .map((r) => r.group_id)
        .sort((a, b) => a - b);
    return { service, repo, rows, superuser, events, groups };
  }

  it('sets exactly the groups asked for, always keeping All Users, and updates the manager flag in place', async () => {
    const m = setup();
    const u = user();
    await m.service.setGroups(u, [{ id: OPS, is_group_manager: true }, { id: ALL_USERS_GROUP_ID }], tx);
    expect(m.groups()).toEqual([ALL_USERS_GROUP_ID, OPS]);
    await m.service.setGroups(u, [{ id: OPS, is_group_manager: false }], tx);
    expect(m.repo.setGroupManager).toHaveBeenCalledWith(expect.any(Number), false, tx);
    expect(m.groups()).toEqual([ALL_USERS_GROUP_ID, OPS]);
  });

  it('refuses unknown groups before changing anything', async () => {
    const m = setup();
    const e = await m.service.setGroups(user(), [{ id: OPS }, { id: 99 }], tx).catch((x: unknown) => x);
    expect((e as ValidationError).errors).toEqual({ user_group_memberships: 'every group id must be an existing group.' });
    expect(m.groups()).toEqual([ALL_USERS_GROUP_ID, ANALYSTS]);
  });

  it('joining Administrators makes a superuser, leaving it unmakes one, unless they are the last active admin', async () => {
    const m = setup();
    const u = user();
    await m.service.setSuperuser(u, true, tx);
    expect(m.groups()).toContain(ADMIN_GROUP_ID);
    expect(u.is_superuser).toBe(true);
    expect(m.superuser.get(7)).toBe(true);
    await m.service.setSuperuser(u, false, tx);
    expect(m.groups()).not.toContain(ADMIN_GROUP_ID);
    expect(m.superuser.get(7)).toBe(false);

    const last = setup({ 7: [ALL_USERS_GROUP_ID, ADMIN_GROUP_ID] }, 1);
    const e = await last.service.setSuperuser(user({ is_superuser: true }), false, tx).catch((x: unknown) => x);
    expect((e as MessageError).message).toBe(LAST_ADMIN_MESSAGE);
    expect(last.groups()).toContain(ADMIN_GROUP_ID);
    // A deactivated admin does not count as the last one to keep.
    await expect(last.service.assertNotLastAdmin(user({ is_superuser: true, is_active: false }), tx)).resolves.toBeUndefined();
  });

  it('keeps All Users and API key users out of the membership endpoints, and says when the user is already a member', async () => {
    const keyUser = user({ id: 8, type: 'api-key' } as Partial<User>);
    const m = setup({ 7: [ALL_USERS_GROUP_ID, ANALYSTS], 8: [ALL_USERS_GROUP_ID] }, 2, [user(), keyUser]);
    const message = async (p: Promise<unknown>) => ((await p.catch((x: unknown) => x)) as Error).message;
    expect(await message(m.service.add({ group_id: ALL_USERS_GROUP_ID, user_id: 7 } as never))).toBe(
      "You cannot add or remove users to/from the 'All Users' group.",
    );
    expect(await message(m.service.add({ group_id: OPS, user_id: 8 } as never))).toBe(
      "An API key's group is changed through /api/api-key.",
    );
    expect(await message(m.service.add({ group_id: ANALYSTS, user_id: 7 } as never))).toBe('The user is already a member of that group.');
    await expect(m.service.add({ group_id: OPS, user_id: 99 } as never)).rejects.toBeInstanceOf(NotFoundError);
    const allUsersRow = m.rows.find((r) => r.user_id === 7 && r.group_id === ALL_USERS_GROUP_ID)!;
    expect(await message(m.service.remove(allUsersRow.id))).toBe("You cannot add or remove users to/from the 'All Users' group.");
    expect(m.events.publish).not.toHaveBeenCalled();

    await m.service.add({ group_id: OPS, user_id: 7, is_group_manager: true } as never);
    expect(m.rows).toContainEqual(expect.objectContaining({ user_id: 7, group_id: OPS, is_group_manager: true }));
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'permissions' });
  });
});
