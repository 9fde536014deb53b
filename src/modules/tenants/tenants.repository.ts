import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, QueryDeepPartialEntity } from 'typeorm';
import { PermissionsGroup } from '../../schema/permissions-group.entity';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { Session } from '../../schema/session.entity';
import { Tenant } from '../../schema/tenant.entity';
import { User } from '../../schema/user.entity';

export type TenantStatus = 'all' | 'active' | 'deactivated';

/** Tenants, their users' rows and the groups that tenants need; every query of the tenants module. */
@Injectable()
export class TenantsRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  list(status: TenantStatus): Promise<Tenant[]> {
    const where = status === 'all' ? {} : { is_active: status === 'active' };
    return this.db.manager.find(Tenant, { where, order: { name: 'ASC', id: 'ASC' } });
  }

  byId(id: number, tx: EntityManager = this.db.manager): Promise<Tenant | null> {
    return tx.findOneBy(Tenant, { id });
  }

  bySlug(slug: string, tx: EntityManager = this.db.manager): Promise<Tenant | null> {
    return tx.findOneBy(Tenant, { slug });
  }

  /** A tenant holding `name` or `slug`, other than `exceptId`. */
  async taken(
    name: string | undefined,
    slug: string | undefined,
    exceptId?: number,
    tx: EntityManager = this.db.manager,
  ): Promise<boolean> {
    const where = [...(name !== undefined ? [{ name }] : []), ...(slug !== undefined ? [{ slug }] : [])];
    if (where.length === 0) return false;
    const found = await tx.find(Tenant, { where, select: { id: true } });
    return found.some((t) => t.id !== exceptId);
  }

  async insert(tx: EntityManager, t: Pick<Tenant, 'name' | 'slug' | 'attributes'>): Promise<number> {
    const result = await tx.insert(Tenant, {
      ...t,
      is_active: true,
      tenant_collection_id: null,
      group_id: null,
    } as QueryDeepPartialEntity<Tenant>);
    return Number(result.identifiers[0].id);
  }

  async update(
    tx: EntityManager,
    id: number,
    changes: Partial<Pick<Tenant, 'name' | 'attributes' | 'is_active' | 'tenant_collection_id' | 'group_id'>>,
  ) {
    if (Object.keys(changes).length > 0) await tx.update(Tenant, { id }, changes as QueryDeepPartialEntity<Tenant>);
  }

  /** Active members per tenant. */
  async memberCounts(tenantIds: number[]): Promise<Map<number, number>> {
    if (tenantIds.length === 0) return new Map();
    const rows = await this.db.manager
      .createQueryBuilder(User, 'u')
      .select('u.tenant_id', 'tenant_id')
      .addSelect('COUNT(u.id)', 'n')
      .where({ tenant_id: In(tenantIds), is_active: true })
      .groupBy('u.tenant_id')
      .getRawMany<{ tenant_id: number | string; n: number | string }>();
    return new Map(rows.map((r) => [Number(r.tenant_id), Number(r.n)]));
  }

  activeTenantUserCount(): Promise<number> {
    return this.db.manager.createQueryBuilder(User, 'u').where('u.tenant_id IS NOT NULL').andWhere({ is_active: true }).getCount();
  }

  /** Sets every user of the tenant active or not (ending their sessions when not); answers their ids. */
  async setUsersActive(tx: EntityManager, tenantId: number, active: boolean): Promise<number[]> {
    const users = await tx.find(User, { where: { tenant_id: tenantId, is_active: !active }, select: { id: true } });
    const ids = users.map((u) => u.id);
    if (ids.length === 0) return ids;
    await tx.update(User, { id: In(ids) }, { is_active: active });
    if (!active) await tx.delete(Session, { user_id: In(ids) });
    return ids;
  }

  groupByMagic(type: 'all-external-users', tx: EntityManager = this.db.manager): Promise<PermissionsGroup | null> {
    return tx.findOneBy(PermissionsGroup, { magic_group_type: type });
  }

  groupByName(name: string, tx: EntityManager = this.db.manager): Promise<PermissionsGroup | null> {
    return tx.findOneBy(PermissionsGroup, { name });
  }

  async insertGroup(tx: EntityManager, name: string, magic: 'all-external-users' | null): Promise<number> {
    const result = await tx.insert(PermissionsGroup, { name, magic_group_type: magic });
    return Number(result.identifiers[0].id);
  }

  async renameGroup(tx: EntityManager, id: number, name: string): Promise<void> {
    await tx.update(PermissionsGroup, { id }, { name });
  }

  async addMembership(tx: EntityManager, userId: number, groupId: number): Promise<void> {
    await tx.insert(PermissionsGroupMembership, { user_id: userId, group_id: groupId, is_group_manager: false });
  }
}
