import { Injectable, Optional } from '@nestjs/common';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { EntityManager } from 'typeorm';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { User } from '../../schema/user.entity';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { AddMembershipDto, MembershipView, MemberView, toMembershipView, toMemberView } from './permissions.dto';
import { PermissionsRepository } from './permissions.repository';

export const LAST_ADMIN_MESSAGE = "You cannot remove the last member of the 'Admin' group!";
const ALL_USERS_MESSAGE = "You cannot add or remove users to/from the 'All Users' group.";
const API_KEY_USER_MESSAGE = "An API key's group is changed through /api/api-key.";
export const TENANT_ADMIN_MESSAGE = 'Tenant users cannot be administrators.';

export interface WantedGroup {
  id: number;
  is_group_manager?: boolean | null;
}

/**
 * The rules of group membership, in one place for the membership endpoints and the user endpoints:
 * everyone stays in All Users, membership of Administrators is what makes a superuser (is_superuser follows it),
 * and the last active admin cannot lose that status.
 */
@Injectable()
export class MembershipsService {
  constructor(
    private readonly repo: PermissionsRepository,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {}

  async byUser(): Promise<Record<string, MembershipView[]>> {
    const out: Record<string, MembershipView[]> = {};
    for (const m of await this.repo.allMemberships()) (out[m.user_id] ??= []).push(toMembershipView(m));
    return out;
  }

  /** Answers the group's members after the addition. */
  async add(dto: AddMembershipDto): Promise<MemberView[]> {
    const members = await this.repo.transaction(async (tx) => {
      if (dto.group_id === ALL_USERS_GROUP_ID) throw new MessageError(ALL_USERS_MESSAGE);
      const group = await this.repo.findGroup(dto.group_id, tx);
      const user = await this.repo.findUser(dto.user_id, tx);
      if (!group || !user) throw new NotFoundError();
      if (user.type !== 'personal') throw new MessageError(API_KEY_USER_MESSAGE);
      await this.insert(user, group.id, Boolean(dto.is_group_manager), tx);
      return (await this.repo.members(group.id, tx)).map(toMemberView);
    });
    await this.events.publish({ topic: 'permissions' });
    return members;
  }

  async remove(membershipId: number): Promise<void> {
    await this.repo.transaction(async (tx) => {
      const m = await this.repo.findMembership(membershipId, tx);
      if (!m) throw new NotFoundError();
      if (m.group_id === ALL_USERS_GROUP_ID) throw new MessageError(ALL_USERS_MESSAGE);
      const user = (await this.repo.findUser(m.user_id, tx))!;
      if (user.type !== 'personal') throw new MessageError(API_KEY_USER_MESSAGE);
      await this.delete(m, user, tx);
    });
    await this.events.publish({ topic: 'permissions' });
  }

  /**
   * Makes the user's groups exactly `wanted` (All Users is always kept, whatever is asked). `user` must have been
   * read inside `tx`.
   */
  /** Which of these group ids name groups that exist (a setting may still name a deleted one). */
  existingGroupIds(ids: number[], tx?: EntityManager): Promise<Set<number>> {
    return this.repo.existingGroupIds(ids, tx);
  }

  async setGroups(user: User, wanted: WantedGroup[], tx: EntityManager): Promise<void> {
    const want = new Map(wanted.filter((g) => g.id !== ALL_USERS_GROUP_ID).map((g) => [g.id, Boolean(g.is_group_manager)]));
    const existing = await this.repo.existingGroupIds([...want.keys()], tx);
    const unknown = [...want.keys()].filter((id) => !existing.has(id));
    if (unknown.length > 0) throw ValidationError.of('user_group_memberships', 'every group id must be an existing group.', unknown);
    const current = await this.repo.membershipsOf(user.id, tx);
    for (const [groupId, isManager] of want) {
      const m = current.find((c) => c.group_id === groupId);
      if (!m) await this.insert(user, groupId, isManager, tx);
      else if (m.is_group_manager !== isManager) await this.repo.setGroupManager(m.id, isManager, tx);
    }
    for (const m of current) {
      if (m.group_id !== ALL_USERS_GROUP_ID && !want.has(m.group_id)) await this.delete(m, user, tx);
    }
  }

  /** is_superuser as a flag: the same as joining or leaving Administrators. */
  async setSuperuser(user: User, isSuperuser: boolean, tx: EntityManager): Promise<void> {
    const current = await this.repo.membershipsOf(user.id, tx);
    const admin = current.find((m) => m.group_id === ADMIN_GROUP_ID);
    if (isSuperuser && !admin) await this.insert(user, ADMIN_GROUP_ID, false, tx);
    if (!isSuperuser && admin) await this.delete(admin, user, tx);
    if (!isSuperuser && !admin && user.is_superuser) await this.repo.setSuperuser(user.id, false, tx);
  }

  /** Refuses when `user` is the only active admin left; call before demoting or deactivating them. */
  async assertNotLastAdmin(user: User, tx: EntityManager): Promise<void> {
    if (user.type !== 'personal' || !user.is_active || !user.is_superuser) return;
    if ((await this.repo.lockActiveAdminCount(tx)) <= 1) throw new MessageError(LAST_ADMIN_MESSAGE);
  }

  private async insert(user: User, groupId: number, isManager: boolean, tx: EntityManager): Promise<void> {
    // An admin sees every tenant's users and content: a tenant's user may not.
    if (groupId === ADMIN_GROUP_ID && typeof user.tenant_id === 'number') throw new MessageError(TENANT_ADMIN_MESSAGE);
    if (!(await this.repo.insertMembership(user.id, groupId, isManager, tx))) {
      throw new MessageError('The user is already a member of that group.');
    }
    if (groupId === ADMIN_GROUP_ID) {
      await this.repo.setSuperuser(user.id, true, tx);
      user.is_superuser = true;
    }
  }

  private async delete(m: PermissionsGroupMembership, user: User, tx: EntityManager): Promise<void> {
    if (m.group_id === ADMIN_GROUP_ID) {
      await this.assertNotLastAdmin(user, tx);
      await this.repo.setSuperuser(user.id, false, tx);
      user.is_superuser = false;
    }
    await this.repo.deleteMembership(m.id, tx);
  }
}
