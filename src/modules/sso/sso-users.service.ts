import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MessageError } from '../../common/errors/api-errors';
import { MembershipsService } from '../permissions';
import { User } from '../../schema/user.entity';
import { providerAttributes, UsersRepository, UsersService } from '../users';
import { ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import type { Tenant } from '../../schema/tenant.entity';
import { signInRefusal, tenantClaim, TENANT_MSG, TenantsService } from '../tenants';

export const NO_ACCOUNT = "Sorry, but you'll need an account to view this page. Please contact your administrator.";
export const ACCOUNT_DISABLED = 'Your account is disabled. Please contact your administrator.';

/** Who an identity provider says is signing in, with what it says of them. */
export interface SsoIdentity {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  /** The provider's group names (when it sent any). */
  groups: string[];
  /**
   * Everything else the provider said: the user's `jwt_attributes`, rewritten at each sign-in. The admin's
   * `login_attributes` are never touched here and win where both name a key (metabase#61940).
   */
  attributes: Record<string, unknown>;
  /** The tenant claim (`jwt-attribute-tenant`) as sent, and its name; absent when the method reads none. */
  tenant?: { claim: string; value: unknown };
}

/** How the method's settings say to treat the identity. */
export interface SsoPolicy {
  source: 'jwt' | 'saml';
  provisioning: boolean;
  groupSync: boolean;
  /** `{"<provider group>": [<group ids>]}`. */
  groupMappings: Record<string, number[]>;
}

/**
 * Users and groups for every SSO method: find the user by email (case-insensitive) or create them (unless
 * provisioning is off), refresh names and the provider's attributes, and sync the groups the mappings name.
 */
@Injectable()
export class SsoUsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: UsersService,
    private readonly memberships: MembershipsService,
    @Optional() private readonly tenants?: TenantsService,
  ) {}

  async signIn(identity: SsoIdentity, policy: SsoPolicy): Promise<User> {
    // Two first sign-ins of one new tenant may race to create it: the loser's transaction is gone, and a second try
    // finds the tenant the winner made.
    const user = await this.signInOnce(identity, policy).catch((e: unknown) => {
      if (e instanceof MessageError && e.message === TENANT_MSG.taken) return this.signInOnce(identity, policy);
      throw e;
    });
    await this.usersService.recordLogin(user);
    return user;
  }

  private signInOnce(identity: SsoIdentity, policy: SsoPolicy): Promise<User> {
    return this.users.transaction(async (tx) => {
      let u = await this.users.findByEmail(identity.email.trim(), tx);
      const tenant = await this.tenantOf(identity, u, tx);
      if (u && (!u.is_active || u.type !== 'personal')) throw new MessageError(ACCOUNT_DISABLED, 401);
      if (!u) {
        if (!policy.provisioning) throw new MessageError(NO_ACCOUNT, 401);
        u = await this.usersService.create(
          {
            email: identity.email,
            first_name: identity.firstName ?? null,
            last_name: identity.lastName ?? null,
            jwt_attributes: providerAttributes(identity.attributes),
            sso_source: policy.source,
            ...(tenant && this.tenants ? { tenant_id: tenant.id, group_ids: await this.tenants.groupsOf(tx, tenant) } : {}),
          },
          tx,
        );
      } else {
        const changes: Partial<User> = {};
        if (identity.firstName && identity.firstName !== u.first_name) changes.first_name = identity.firstName;
        if (identity.lastName && identity.lastName !== u.last_name) changes.last_name = identity.lastName;
        // A claim the provider no longer sends is gone from the attributes in force.
        const attributes = providerAttributes(identity.attributes);
        if (JSON.stringify(attributes) !== JSON.stringify(u.jwt_attributes ?? null)) changes.jwt_attributes = attributes;
        if (Object.keys(changes).length > 0) {
          await this.users.update(u.id, changes, tx);
          Object.assign(u, changes);
        }
      }
      if (policy.groupSync) await this.syncGroups(u, identity.groups, policy.groupMappings, tx);
      return u;
    });
  }

  /**
   * The tenant the sign-in puts the user in (null: an internal user), made on first use; the refusals of COMPAT
   * "Tenants" are 403s. Checked before the account's own state, so a deactivated tenant says why.
   */
  private async tenantOf(identity: SsoIdentity, user: User | null, tx: EntityManager): Promise<Tenant | null> {
    if (!this.tenants) return null;
    const slug = identity.tenant ? tenantClaim(identity.tenant.value, identity.tenant.claim) : null;
    const tenantId = user?.tenant_id ?? null;
    const current = tenantId !== null ? await this.tenants.byId(tenantId, tx) : null;
    // undefined: a new user; null: an internal one.
    const userTenantSlug = user === null ? undefined : tenantId === null ? null : (current?.slug ?? '');
    const why = signInRefusal({ enabled: await this.tenants.enabled(), slug, userTenantSlug });
    if (why) throw new MessageError(why, 403);
    if (slug === null) return null;
    const tenant = current ?? (await this.tenants.findOrCreate(tx, slug));
    if (!tenant.is_active) throw new MessageError(TENANT_MSG.inactive, 403);
    return tenant;
  }

  /**
   * Only groups some mapping names are managed: the user joins the ones their provider groups map to and leaves the
   * other mapped ones; groups no mapping names (Administrators included) are left as they are.
   */
  private async syncGroups(user: User, groups: string[], mappings: Record<string, number[]>, tx: EntityManager): Promise<void> {
    const managed = new Set(Object.values(mappings).flat());
    if (managed.size === 0) return;
    // A mapping may name a group deleted since: it is skipped, not a failed login.
    const mapped = groups.flatMap((g) => mappings[g] ?? []);
    const existing = await this.memberships.existingGroupIds(mapped, tx);
    const wanted = new Set(mapped.filter((id) => existing.has(id)));
    const current = (await this.users.memberships([user.id], tx)).get(user.id) ?? [];
    const keep = current.filter((m) => !managed.has(m.group_id) || wanted.has(m.group_id));
    const next = new Map(keep.map((m) => [m.group_id, m.is_group_manager]));
    for (const id of wanted) if (!next.has(id)) next.set(id, false);
    next.delete(ALL_USERS_GROUP_ID);
    const same =
      next.size === current.filter((m) => m.group_id !== ALL_USERS_GROUP_ID).length &&
      current.every((m) => m.group_id === ALL_USERS_GROUP_ID || next.has(m.group_id));
    if (same) return;
    await this.memberships.setGroups(
      user,
      [...next].map(([id, isManager]) => ({ id, is_group_manager: isManager })),
      tx,
    );
  }
}
