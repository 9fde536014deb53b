import { idsOf, typedRows, type RowShape } from '../../common/database/row-values';
import { isUniqueViolation } from '../../common/database/unique-violation';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { User } from '../../schema/user.entity';
import { MagicGroupType, PermissionsGroup } from '../../schema/permissions-group.entity';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';

export interface GroupRow {
  id: number;
  name: string;
  magic_group_type: MagicGroupType | null;
  member_count: number;
}

export const GROUP_ROW_SHAPE: RowShape = { numbers: ['id', 'member_count'] };

export interface MemberRow {
  user_id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  membership_id: number;
  group_id: number;
  is_group_manager: boolean;
  is_superuser: boolean;
}

export const MEMBER_ROW_SHAPE: RowShape = {
  numbers: ['user_id', 'membership_id', 'group_id'],
  booleans: ['is_group_manager', 'is_superuser'],
};

/** Groups and memberships. Member counts and member lists count active users only, as Metabase does. */
@Injectable()
export class PermissionsRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  /** All groups (or those in `ids`) with their member counts, in one GROUP BY query, ordered by name. */
  async groupsWithCounts(ids?: number[], tx: EntityManager = this.db.manager): Promise<GroupRow[]> {
    if (ids && ids.length === 0) return [];
    const qb = tx
      .createQueryBuilder(PermissionsGroup, 'g')
      .leftJoin(PermissionsGroupMembership, 'm', 'm.group_id = g.id')
      .leftJoin(User, 'u', 'u.id = m.user_id AND u.is_active = :active', { active: true })
      .select(['g.id AS id', 'g.name AS name', 'g.magic_group_type AS magic_group_type', 'COUNT(u.id) AS member_count'])
      .groupBy('g.id')
      .addGroupBy('g.name')
      .addGroupBy('g.magic_group_type')
      .orderBy('LOWER(g.name)', 'ASC')
      .addOrderBy('g.id', 'ASC');
    if (ids) qb.where('g.id IN (:...ids)', { ids });
    return typedRows<GroupRow>(await qb.getRawMany<Record<string, unknown>>(), GROUP_ROW_SHAPE);
  }

  findGroup(id: number, tx: EntityManager = this.db.manager): Promise<PermissionsGroup | null> {
    return tx.findOneBy(PermissionsGroup, { id });
  }

  /** Group names are unique regardless of case. */
  findGroupByName(name: string, tx: EntityManager = this.db.manager): Promise<PermissionsGroup | null> {
    return tx.createQueryBuilder(PermissionsGroup, 'g').where('LOWER(g.name) = LOWER(:name)', { name }).getOne();
  }

  async existingGroupIds(ids: number[], tx: EntityManager = this.db.manager): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await tx
      .createQueryBuilder(PermissionsGroup, 'g')
      .select('g.id', 'id')
      .where('g.id IN (:...ids)', { ids })
      .getRawMany<Record<string, unknown>>();
    return new Set(idsOf(rows));
  }

  /** The new group's id, or undefined when the name was taken meanwhile. */
  async insertGroup(name: string, tx: EntityManager): Promise<number | undefined> {
    return uniqueOrUndefined(async () => (await tx.save(tx.create(PermissionsGroup, { name, magic_group_type: null }))).id);
  }

  async renameGroup(id: number, name: string, tx: EntityManager): Promise<boolean> {
    return (await uniqueOrUndefined(() => tx.update(PermissionsGroup, { id }, { name }).then(() => true))) ?? false;
  }

  async deleteGroup(id: number, tx: EntityManager): Promise<void> {
    await tx.delete(PermissionsGroupMembership, { group_id: id });
    await tx.delete(PermissionsGroup, { id });
  }

  /** Groups in which the user is a group manager. */
  async managedGroupIds(userId: number): Promise<number[]> {
    const rows = await this.db.manager.find(PermissionsGroupMembership, { where: { user_id: userId, is_group_manager: true } });
    return rows.map((m) => m.group_id);
  }

  /** The group's active members, ordered by name. */
  async members(groupId: number, tx: EntityManager = this.db.manager): Promise<MemberRow[]> {
    const rows = await tx
      .createQueryBuilder(PermissionsGroupMembership, 'm')
      .innerJoin(User, 'u', 'u.id = m.user_id')
      .select([
        'u.id AS user_id',
        'u.email AS email',
        'u.first_name AS first_name',
        'u.last_name AS last_name',
        'u.is_superuser AS is_superuser',
        'm.id AS membership_id',
        'm.group_id AS group_id',
        'm.is_group_manager AS is_group_manager',
      ])
      .where('m.group_id = :groupId AND u.is_active = :active', { groupId, active: true })
      .orderBy('LOWER(u.first_name)', 'ASC', 'NULLS LAST')
      .addOrderBy('LOWER(u.last_name)', 'ASC', 'NULLS LAST')
      .addOrderBy('u.id', 'ASC')
      .getRawMany<Record<string, unknown>>();
    return typedRows<MemberRow>(rows, MEMBER_ROW_SHAPE);
  }

  allMemberships(): Promise<PermissionsGroupMembership[]> {
    return this.db.manager.find(PermissionsGroupMembership, { order: { user_id: 'ASC', group_id: 'ASC' } });
  }

  membershipsOf(userId: number, tx: EntityManager): Promise<PermissionsGroupMembership[]> {
    return tx.find(PermissionsGroupMembership, { where: { user_id: userId } });
  }

  findMembership(id: number, tx: EntityManager): Promise<PermissionsGroupMembership | null> {
    return tx.findOneBy(PermissionsGroupMembership, { id });
  }

  /** False when the user was already a member (possibly added by a concurrent request). */
  async insertMembership(userId: number, groupId: number, isGroupManager: boolean, tx: EntityManager): Promise<boolean> {
    if (await tx.existsBy(PermissionsGroupMembership, { user_id: userId, group_id: groupId })) return false;
    const done = await uniqueOrUndefined(() =>
      tx.insert(PermissionsGroupMembership, { user_id: userId, group_id: groupId, is_group_manager: isGroupManager }).then(() => true),
    );
    return done ?? false;
  }

  async setGroupManager(membershipId: number, isGroupManager: boolean, tx: EntityManager): Promise<void> {
    await tx.update(PermissionsGroupMembership, { id: membershipId }, { is_group_manager: isGroupManager });
  }

  async deleteMembership(id: number, tx: EntityManager): Promise<void> {
    await tx.delete(PermissionsGroupMembership, { id });
  }

  findUser(id: number, tx: EntityManager): Promise<User | null> {
    return tx.findOneBy(User, { id });
  }

  async setSuperuser(userId: number, isSuperuser: boolean, tx: EntityManager): Promise<void> {
    await tx.update(User, { id: userId }, { is_superuser: isSuperuser });
  }

  /**
   * Active personal admins. On Postgres their rows are locked until the transaction ends, so two admins demoting
   * each other at once cannot both see "another admin is left".
   */
  async lockActiveAdminCount(tx: EntityManager): Promise<number> {
    const qb = tx
      .createQueryBuilder(User, 'u')
      .select('u.id', 'id')
      .where('u.is_superuser = :yes AND u.is_active = :yes AND u.type = :type', { yes: true, type: 'personal' });
    if (this.db.options.type === 'postgres') qb.setLock('pessimistic_write');
    return (await qb.getRawMany()).length;
  }
}

/** Runs an insert or update; a unique-constraint violation (a concurrent duplicate) answers undefined. */
async function uniqueOrUndefined<T>(work: () => Promise<T>): Promise<T | undefined> {
  try {
    return await work();
  } catch (e) {
    if (isUniqueViolation(e)) return undefined;
    throw e;
  }
}
