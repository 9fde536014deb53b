import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { uniqueOr } from '../../common/database/unique-violation';
import { MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import type { Tenant } from '../../schema/tenant.entity';
import { TenantCollectionsService } from '../collections';
import { SettingsService } from '../settings';
import { isAttributeValue, isReservedKey } from '../users';
import { TENANT_MSG } from './tenant-rules';
import { CreateTenantDto, ListTenantsQuery, TenantView, toTenantView, UpdateTenantDto } from './tenants.dto';
import { TenantsRepository } from './tenants.repository';

export const ALL_TENANT_USERS = 'All tenant users';
const ALL_INTERNAL_USERS = 'All internal users';
const ALL_USERS = 'All Users';

/** The group of one tenant's users: named by the slug, which never changes. */
export const tenantGroupName = (slug: string) => `Tenant users: ${slug}`;

/**
 * Tenants: their CRUD for admins, the `use-tenants` switch, and the groups and collection each tenant comes with.
 * Tenant users are members of "All tenant users" and of their tenant's group, never of All Users, so nothing granted
 * to internal users reaches them; their tenant's collection is granted (write) to their tenant's group only.
 */
@Injectable()
export class TenantsService implements OnModuleInit {
  constructor(
    private readonly repo: TenantsRepository,
    private readonly settings: SettingsService,
    private readonly collections: TenantCollectionsService,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {}

  onModuleInit(): void {
    this.settings.onWrite('use-tenants', (value) => this.switchTo(value === true));
  }

  enabled(): Promise<boolean> {
    return this.settings.get<boolean>('use-tenants');
  }

  async list(q: ListTenantsQuery): Promise<{ data: TenantView[] }> {
    return { data: await this.views(await this.repo.list(q.status ?? 'all')) };
  }

  async get(id: number): Promise<TenantView> {
    return (await this.views([await this.require(id)]))[0];
  }

  async create(dto: CreateTenantDto): Promise<TenantView> {
    const attributes = checkedAttributes(dto.attributes);
    const tenant = await this.repo.transaction((tx) => this.createIn(tx, { name: dto.name.trim(), slug: dto.slug, attributes }));
    return this.get(tenant.id);
  }

  /** Deactivating a tenant deactivates its users (ending their sessions) and archives its collection; reactivating undoes both. */
  async update(admin: AuthUser, id: number, dto: UpdateTenantDto): Promise<TenantView> {
    const attributes = dto.attributes !== undefined ? checkedAttributes(dto.attributes) : undefined;
    const active = typeof dto.is_active === 'boolean' ? dto.is_active : undefined;
    let switched: number[] = [];
    let flipped = false;
    const tenant = await this.repo.transaction(async (tx) => {
      const t = await this.require(id, tx);
      const name = dto.name?.trim();
      if (name !== undefined && name !== t.name) {
        if (await this.repo.taken(name, undefined, id, tx)) throw new MessageError(TENANT_MSG.taken);
        await uniqueOr(
          () => this.repo.update(tx, id, { name }),
          () => new MessageError(TENANT_MSG.taken),
        );
        if (t.tenant_collection_id !== null) await this.collections.rename(tx, t.tenant_collection_id, name);
      }
      if (attributes !== undefined) await this.repo.update(tx, id, { attributes });
      if (active !== undefined && active !== t.is_active) {
        flipped = true;
        await this.repo.update(tx, id, { is_active: active });
        switched = await this.repo.setUsersActive(tx, id, active);
      }
      return t;
    });
    if (flipped && tenant.tenant_collection_id !== null) {
      await this.collections.setArchived(admin, tenant.tenant_collection_id, !active);
    }
    // Callers are kept in memory on every instance: deactivated users must lose their sessions there too.
    for (const userId of switched) await this.events.publish({ topic: 'user', id: userId });
    return this.get(id);
  }

  /**
   * The tenant named by `slug`, made (name = slug) when it is new: JWT sign-in creates tenants on first use. Inside the
   * sign-in's transaction.
   */
  async findOrCreate(tx: EntityManager, slug: string): Promise<Tenant> {
    return (await this.repo.bySlug(slug, tx)) ?? this.createIn(tx, { name: slug, slug, attributes: null });
  }

  byId(id: number, tx?: EntityManager): Promise<Tenant | null> {
    return this.repo.byId(id, tx);
  }

  /** The groups a new user of `tenant` joins (instead of All Users). */
  async groupsOf(tx: EntityManager, tenant: Tenant): Promise<number[]> {
    const all = await this.ensureAllTenantUsersGroup(tx);
    return tenant.group_id === null ? [all] : [all, tenant.group_id];
  }

  private async createIn(tx: EntityManager, t: Pick<Tenant, 'name' | 'slug' | 'attributes'>): Promise<Tenant> {
    const taken = () => new MessageError(TENANT_MSG.taken);
    if (await this.repo.taken(t.name, t.slug, undefined, tx)) throw taken();
    const id = await uniqueOr(() => this.repo.insert(tx, t), taken);
    await this.ensureAllTenantUsersGroup(tx);
    const groupName = tenantGroupName(t.slug);
    if (await this.repo.groupByName(groupName, tx)) throw new MessageError(`A group named "${groupName}" already exists: rename it first.`);
    const groupId = await this.repo.insertGroup(tx, groupName, null);
    const collectionId = await this.collections.create(tx, t.name, groupId);
    await this.repo.update(tx, id, { group_id: groupId, tenant_collection_id: collectionId });
    return (await this.repo.byId(id, tx))!;
  }

  /** Made when tenants are turned on, and again whenever missing (the setting may come from the environment). */
  private async ensureAllTenantUsersGroup(tx: EntityManager): Promise<number> {
    const existing = await this.repo.groupByMagic('all-external-users', tx);
    if (existing) return existing.id;
    if (await this.repo.groupByName(ALL_TENANT_USERS, tx)) {
      throw new MessageError(`A group named "${ALL_TENANT_USERS}" already exists: rename it before turning tenants on.`);
    }
    return this.repo.insertGroup(tx, ALL_TENANT_USERS, 'all-external-users');
  }

  /** The `use-tenants` write: on, the tenant group is made and All Users is shown as internal users; off, only without tenant users. */
  private async switchTo(on: boolean): Promise<void> {
    if (!on && (await this.repo.activeTenantUserCount()) > 0) throw new MessageError(TENANT_MSG.turnOff);
    await this.repo.transaction(async (tx) => {
      if (on) await this.ensureAllTenantUsersGroup(tx);
      const name = on ? ALL_INTERNAL_USERS : ALL_USERS;
      // An admin's own group may hold the name already: then All Users keeps the name it has.
      if (!(await this.repo.groupByName(name, tx))) await this.repo.renameGroup(tx, ALL_USERS_GROUP_ID, name);
    });
  }

  private async require(id: number, tx?: EntityManager): Promise<Tenant> {
    const t = await this.repo.byId(id, tx);
    if (!t) throw new NotFoundError();
    return t;
  }

  private async views(tenants: Tenant[]): Promise<TenantView[]> {
    const counts = await this.repo.memberCounts(tenants.map((t) => t.id));
    return tenants.map((t) => toTenantView(t, counts.get(t.id) ?? 0));
  }
}

/** Tenant attributes are parameter values under names outside the system's `@` namespace, as user attributes are. */
function checkedAttributes(attributes: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!attributes) return null;
  for (const [k, v] of Object.entries(attributes)) {
    if (isReservedKey(k)) throw ValidationError.of('attributes', 'attribute keys must not start with `@`', k);
    if (!isAttributeValue(v))
      throw ValidationError.of('attributes', 'attribute values must be strings, numbers, booleans or lists of those.', v);
  }
  return Object.keys(attributes).length > 0 ? attributes : null;
}
