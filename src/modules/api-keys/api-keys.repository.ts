import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Not } from 'typeorm';
import { typedRows } from '../../common/database/row-values';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { PermissionsGroup, ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import { User } from '../../schema/user.entity';
import { ApiKey } from '../../schema/api-key.entity';

export type NewApiKey = Pick<ApiKey, 'user_id' | 'name' | 'key_hash' | 'key_prefix' | 'creator_id' | 'updated_by_id'>;
export type ApiKeyChanges = Partial<Pick<ApiKey, 'name' | 'key_hash' | 'key_prefix' | 'updated_by_id'>>;

/**
 * API keys, and the few writes to a key's own user that keep it in step with its key (name, group, active):
 * that user exists only for its key, so those writes belong with the key.
 */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  list(): Promise<ApiKey[]> {
    return this.db.manager.find(ApiKey, { order: { created_at: 'DESC', id: 'DESC' } });
  }

  count(): Promise<number> {
    return this.db.manager.count(ApiKey);
  }

  findById(id: number, tx: EntityManager = this.db.manager): Promise<ApiKey | null> {
    return tx.findOneBy(ApiKey, { id });
  }

  findByName(name: string, tx: EntityManager = this.db.manager): Promise<ApiKey | null> {
    return tx.findOneBy(ApiKey, { name });
  }

  findGroup(id: number, tx: EntityManager = this.db.manager): Promise<PermissionsGroup | null> {
    return tx.findOneBy(PermissionsGroup, { id });
  }

  async insert(values: NewApiKey, tx: EntityManager): Promise<ApiKey> {
    const saved = await tx.save(tx.create(ApiKey, values));
    return (await this.findById(saved.id, tx))!;
  }

  async update(id: number, changes: ApiKeyChanges, tx: EntityManager): Promise<void> {
    await tx.update(ApiKey, { id }, changes);
  }

  async delete(id: number, tx: EntityManager): Promise<void> {
    await tx.delete(ApiKey, { id });
  }

  /**
   * The group each key user is shown in: its one group besides All Users, else All Users. One query for any
   * number of users.
   */
  async displayGroups(userIds: number[], tx: EntityManager = this.db.manager): Promise<Map<number, { id: number; name: string }>> {
    const out = new Map<number, { id: number; name: string }>();
    if (userIds.length === 0) return out;
    const rows = await tx
      .createQueryBuilder(PermissionsGroupMembership, 'm')
      .innerJoin(PermissionsGroup, 'g', 'g.id = m.group_id')
      .select(['m.user_id AS user_id', 'g.id AS group_id', 'g.name AS group_name'])
      .where('m.user_id IN (:...userIds)', { userIds })
      .orderBy('g.id', 'ASC')
      .getRawMany<Record<string, unknown>>();
    const typed = typedRows<{ user_id: number; group_id: number; group_name: string }>(rows, { numbers: ['user_id', 'group_id'] });
    for (const r of typed) {
      const current = out.get(r.user_id);
      if (!current || current.id === ALL_USERS_GROUP_ID) out.set(r.user_id, { id: r.group_id, name: r.group_name });
    }
    return out;
  }

  async usersByIds(ids: number[], tx: EntityManager = this.db.manager): Promise<Map<number, User>> {
    if (ids.length === 0) return new Map();
    const users = await tx.find(User, { where: { id: In([...new Set(ids)]) } });
    return new Map(users.map((u) => [u.id, u]));
  }

  /** Moves a key's user to `groupId` (besides All Users); it is a superuser exactly when that is Administrators. */
  async moveUserToGroup(userId: number, groupId: number, tx: EntityManager): Promise<void> {
    await tx.delete(PermissionsGroupMembership, { user_id: userId, group_id: Not(ALL_USERS_GROUP_ID) });
    if (groupId !== ALL_USERS_GROUP_ID) {
      await tx.insert(PermissionsGroupMembership, { user_id: userId, group_id: groupId, is_group_manager: false });
    }
    await tx.update(User, { id: userId }, { is_superuser: groupId === ADMIN_GROUP_ID });
  }

  async renameUser(userId: number, name: string, tx: EntityManager): Promise<void> {
    await tx.update(User, { id: userId }, { first_name: name });
  }

  async deactivateUser(userId: number, tx: EntityManager): Promise<void> {
    await tx.update(User, { id: userId }, { is_active: false });
  }
}
