import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, Not, QueryDeepPartialEntity } from 'typeorm';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { Session } from '../../schema/session.entity';
import { User } from '../../schema/user.entity';

/** Users and their group memberships. */

export interface UserPageQuery {
  status: 'active' | 'deactivated' | 'all';
  query?: string;
  groupId?: number;
  limit?: number;
  offset?: number;
}

@Injectable()
export class UsersRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  findById(id: number, tx: EntityManager = this.db.manager): Promise<User | null> {
    return tx.findOneBy(User, { id });
  }

  findByEmail(email: string, tx: EntityManager = this.db.manager): Promise<User | null> {
    return tx.findOneBy(User, { email: email.toLowerCase() });
  }

  /** With the password hash, which is otherwise never selected. */
  findForLogin(email: string): Promise<User | null> {
    return this.db.manager
      .createQueryBuilder(User, 'u')
      .addSelect('u.password_hash')
      .where('u.email = :email', { email: email.toLowerCase() })
      .getOne();
  }

  findPasswordHash(id: number): Promise<string | null> {
    return this.db.manager
      .createQueryBuilder(User, 'u')
      .addSelect('u.password_hash')
      .where('u.id = :id', { id })
      .getOne()
      .then((u) => u?.password_hash ?? null);
  }

  count(tx: EntityManager = this.db.manager): Promise<number> {
    return tx.count(User, { where: { type: 'personal' } });
  }

  /** One page of personal users, ordered by name, and the number of users matching in all. */
  async page(q: UserPageQuery): Promise<{ users: User[]; total: number }> {
    const qb = this.db.manager.createQueryBuilder(User, 'u').where('u.type = :type', { type: 'personal' });
    if (q.status !== 'all') qb.andWhere('u.is_active = :active', { active: q.status === 'active' });
    if (q.query) {
      const like = `%${q.query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        `(LOWER(u.first_name) LIKE :like ESCAPE '\\' OR LOWER(u.last_name) LIKE :like ESCAPE '\\'` +
          ` OR LOWER(u.email) LIKE :like ESCAPE '\\')`,
        { like },
      );
    }
    if (q.groupId) {
      qb.andWhere('EXISTS (SELECT 1 FROM permissions_group_membership m WHERE m.user_id = u.id AND m.group_id = :groupId)', {
        groupId: q.groupId,
      });
    }
    const total = await qb.getCount();
    qb.orderBy('LOWER(u.first_name)', 'ASC', 'NULLS LAST').addOrderBy('LOWER(u.last_name)', 'ASC', 'NULLS LAST').addOrderBy('u.id', 'ASC');
    if (q.limit !== undefined) qb.limit(q.limit);
    if (q.offset !== undefined) qb.offset(q.offset);
    return { users: await qb.getMany(), total };
  }

  async memberships(userIds: number[], tx: EntityManager = this.db.manager): Promise<Map<number, PermissionsGroupMembership[]>> {
    const out = new Map<number, PermissionsGroupMembership[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return out;
    const rows = await tx.find(PermissionsGroupMembership, { where: { user_id: In(userIds) }, order: { group_id: 'ASC' } });
    for (const m of rows) out.get(m.user_id)?.push(m);
    return out;
  }

  /** The slug of each tenant user's tenant (users without one are absent), for their `@tenant.slug` attribute. */
  async tenantSlugs(tenantIds: number[]): Promise<Map<number, string>> {
    const ids = [...new Set(tenantIds)];
    if (ids.length === 0) return new Map();
    const rows = await this.db.manager
      .createQueryBuilder()
      .select(['t.id AS id', 't.slug AS slug'])
      .from('tenant', 't')
      .where('t.id IN (:...ids)', { ids })
      .getRawMany<{ id: number | string; slug: string }>();
    return new Map(rows.map((r) => [Number(r.id), r.slug]));
  }

  /** Every distinct attribute map users hold (the admin's and the providers'), as stored. */
  async attributeMaps(): Promise<string[]> {
    const distinct = (column: 'login_attributes' | 'jwt_attributes') =>
      this.db.manager
        .createQueryBuilder(User, 'u')
        .select(`DISTINCT u.${column}`, 'attrs')
        .where(`u.${column} IS NOT NULL`)
        .getRawMany<{ attrs: string }>();
    const rows = [...(await distinct('login_attributes')), ...(await distinct('jwt_attributes'))];
    return rows.map((r) => r.attrs);
  }

  countActiveAdmins(tx: EntityManager = this.db.manager): Promise<number> {
    return tx.count(User, { where: { is_superuser: true, is_active: true, type: 'personal' } });
  }

  async update(id: number, changes: Partial<User>, tx: EntityManager): Promise<void> {
    // The JSON column's type (an open map) is wider than TypeORM's deep-partial type allows.
    await tx.update(User, { id }, changes as QueryDeepPartialEntity<User>);
  }

  /**
   * Session rows are written here rather than through SessionsService, which depends on this module: ending a
   * user's sessions is part of deactivating them or changing their password, in the same transaction.
   */
  async deleteSessions(userId: number, tx: EntityManager, keepKeyHash?: string): Promise<void> {
    await tx.delete(Session, keepKeyHash ? { user_id: userId, key_hash: Not(keepKeyHash) } : { user_id: userId });
  }

  async insertSession(keyHash: string, userId: number, tx: EntityManager): Promise<void> {
    await tx.insert(Session, { key_hash: keyHash, user_id: userId });
  }
}
