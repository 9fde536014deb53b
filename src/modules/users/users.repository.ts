import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In } from 'typeorm';
import { PermissionsGroupMembership } from '../permissions/permissions-group-membership.entity';
import { User } from './user.entity';

/** Users and their group memberships. The built-in groups are 1 (All Users) and 2 (Administrators). */
export const ALL_USERS_GROUP_ID = 1;
export const ADMIN_GROUP_ID = 2;

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

  async list(opts: { includeDeactivated: boolean }): Promise<User[]> {
    return this.db.manager.find(User, {
      where: opts.includeDeactivated ? { type: 'personal' } : { type: 'personal', is_active: true },
      order: { last_name: 'ASC', first_name: 'ASC', id: 'ASC' },
    });
  }

  async memberships(userIds: number[], tx: EntityManager = this.db.manager): Promise<Map<number, PermissionsGroupMembership[]>> {
    const out = new Map<number, PermissionsGroupMembership[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 0) return out;
    const rows = await tx.find(PermissionsGroupMembership, { where: { user_id: In(userIds) }, order: { group_id: 'ASC' } });
    for (const m of rows) out.get(m.user_id)?.push(m);
    return out;
  }

  countActiveAdmins(tx: EntityManager = this.db.manager): Promise<number> {
    return tx.count(User, { where: { is_superuser: true, is_active: true, type: 'personal' } });
  }
}
