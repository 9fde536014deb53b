import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Optional } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/current-user';
import { ClusterEvents } from '../../common/cluster/cluster-events';
import { uniqueOr } from '../../common/database/unique-violation';
import { hashPassword, sha256Hex, verifyPassword } from '../../common/crypto/hashing';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { PersonalCollectionsService } from '../collections';
import { SettingsService } from '../settings';
import { MembershipsService } from '../permissions';
import { PermissionsGroupMembership } from '../../schema/permissions-group-membership.entity';
import { assertPasswordAcceptable, PasswordComplexity } from './password-policy';
import { User, UserType } from '../../schema/user.entity';
import { ChangePasswordDto, CreateUserDto, ListUsersQuery, UpdateUserDto } from './users.dto';
import { UsersRepository } from './users.repository';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import { toUserView, UserView } from './user.view';

export interface NewUser {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  /** Absent: the user gets an unguessable password and can log in only through SSO (or after a reset). */
  password?: string;
  is_superuser?: boolean;
  type?: UserType;
  login_attributes?: Record<string, unknown> | null;
  /** What an identity provider said at sign-in (see providerAttributes). */
  jwt_attributes?: Record<string, unknown> | null;
  sso_source?: string | null;
  /** Extra groups besides All Users (and Administrators for superusers). */
  group_ids?: number[];
  /** An external user's tenant: they join only `group_ids` (the tenants' groups), never All Users. */
  tenant_id?: number | null;
}

/** Users who sign in through SSO (JWT, SAML) have no password here. */
export const SSO_PASSWORD = 'Users who sign in through SSO cannot set a password.';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly memberships: MembershipsService,
    private readonly personalCollections: PersonalCollectionsService,
    @Optional() private readonly events: ClusterEvents = new ClusterEvents(),
  ) {}

  async assertPassword(password: unknown, param = 'password'): Promise<void> {
    assertPasswordAcceptable(password, await this.settings.get<PasswordComplexity>('password-complexity'), param);
  }

  /** Creates a user with the built-in memberships, inside `tx` when given. Emails are unique regardless of case. */
  async create(input: NewUser, tx?: EntityManager): Promise<User> {
    if (input.password !== undefined) await this.assertPassword(input.password);
    const passwordHash = await hashPassword(input.password ?? randomBytes(32).toString('base64'));
    const work = async (m: EntityManager) => {
      const email = input.email.trim().toLowerCase();
      const inUse = () => ValidationError.of('email', 'Email address already in use.', input.email);
      if (await this.users.findByEmail(email, m)) throw inUse();
      const user = await uniqueOr(
        () =>
          m.save(
            m.create(User, {
              email,
              first_name: input.first_name ?? null,
              last_name: input.last_name ?? null,
              password_hash: passwordHash,
              is_superuser: Boolean(input.is_superuser),
              type: input.type ?? 'personal',
              login_attributes: input.login_attributes ?? null,
              jwt_attributes: input.jwt_attributes ?? null,
              sso_source: input.sso_source ?? null,
              tenant_id: input.tenant_id ?? null,
              locale: null,
              last_login: null,
            }),
          ),
        inUse,
      );
      const internal = (input.tenant_id ?? null) === null ? [ALL_USERS_GROUP_ID] : [];
      const groups = new Set([...internal, ...(input.is_superuser ? [ADMIN_GROUP_ID] : []), ...(input.group_ids ?? [])]);
      await m.insert(
        PermissionsGroupMembership,
        [...groups].map((group_id) => ({ user_id: user.id, group_id, is_group_manager: false })),
      );
      await this.personalCollections.create(m, user);
      return user;
    };
    return tx ? work(tx) : this.users.transaction(work);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** The API shape of users, with their memberships and personal collections fetched in one query each. */
  async views(users: User[]): Promise<UserView[]> {
    const ids = users.map((u) => u.id);
    const memberships = await this.users.memberships(ids);
    const personal = await this.personalCollections.idsFor(ids);
    const tenantIds = users.flatMap((u) => (typeof u.tenant_id === 'number' ? [u.tenant_id] : []));
    // Most instances have no tenant users: no query for them.
    const slugs = tenantIds.length > 0 ? await this.users.tenantSlugs(tenantIds) : new Map<number, string>();
    const slugOf = (u: User) => (typeof u.tenant_id === 'number' ? (slugs.get(u.tenant_id) ?? null) : null);
    return users.map((u) => toUserView(u, memberships.get(u.id) ?? [], personal.get(u.id) ?? null, slugOf(u)));
  }

  async view(user: User): Promise<UserView> {
    return (await this.views([user]))[0];
  }

  async recordLogin(user: User): Promise<void> {
    await this.users.transaction((m) => m.update(User, { id: user.id }, { last_login: new Date() }));
  }

  /** GET /api/user: Metabase's page shape; `limit` and `offset` are echoed, null when not given. */
  async list(q: ListUsersQuery) {
    const status = q.include_deactivated ? 'all' : (q.status ?? 'active');
    const { users, total } = await this.users.page({ status, query: q.query, groupId: q.group_id, limit: q.limit, offset: q.offset });
    return { data: await this.views(users), total, limit: q.limit ?? null, offset: q.offset ?? null };
  }

  async createByAdmin(dto: CreateUserDto): Promise<UserView> {
    const user = await this.users.transaction(async (tx) => {
      const created = await this.create(
        {
          email: dto.email,
          first_name: dto.first_name,
          last_name: dto.last_name,
          password: dto.password ?? undefined,
          login_attributes: dto.login_attributes,
        },
        tx,
      );
      if (dto.user_group_memberships) await this.memberships.setGroups(created, dto.user_group_memberships, tx);
      return created;
    });
    return this.view(await this.get(user.id));
  }

  /** Deactivated users are not found, as in Metabase; an API key's user is visible only to itself. */
  async viewFor(caller: AuthUser, id: number): Promise<UserView> {
    assertSelfOrAdmin(caller, id);
    const user = await this.users.findById(id);
    if (!user || !user.is_active || (user.type !== 'personal' && user.id !== caller.id)) throw new NotFoundError();
    return this.view(user);
  }

  /** Admin-only keys: is_superuser, user_group_memberships and login_attributes (which row-level rules read). */
  async update(caller: AuthUser, id: number, dto: UpdateUserDto): Promise<UserView> {
    assertSelfOrAdmin(caller, id);
    const groups = dto.user_group_memberships ?? undefined;
    const superuser = dto.is_superuser ?? undefined;
    if (!caller.isSuperuser && (groups !== undefined || superuser !== undefined || dto.login_attributes !== undefined))
      throw new ForbiddenError();
    if (groups && superuser !== undefined && superuser !== groups.some((g) => g.id === ADMIN_GROUP_ID)) {
      throw ValidationError.of(
        'is_superuser',
        'Value of is_superuser must correspond to presence of Admin group ID in group_ids.',
        superuser,
      );
    }
    await this.users.transaction(async (tx) => {
      const user = await this.activePersonal(id, tx);
      const changes: Partial<User> = {};
      const email = dto.email?.trim().toLowerCase();
      const taken = () => ValidationError.of('email', 'Email address already associated to another user.', dto.email);
      if (email && email !== user.email) {
        // An SSO user's email is their identity at the provider: only an admin may change it.
        if (!caller.isSuperuser && user.sso_source) throw new ForbiddenError();
        if (await this.users.findByEmail(email, tx)) throw taken();
        changes.email = email;
      }
      if (dto.first_name !== undefined) changes.first_name = dto.first_name;
      if (dto.last_name !== undefined) changes.last_name = dto.last_name;
      if (dto.locale !== undefined) changes.locale = dto.locale && normalizeLocale(dto.locale);
      if (dto.login_attributes !== undefined) changes.login_attributes = dto.login_attributes;
      if (Object.keys(changes).length > 0) {
        await uniqueOr(() => this.users.update(id, changes, tx), taken);
        // Personal collections carry their owner's name (the email when there is none).
        if (changes.first_name !== undefined || changes.last_name !== undefined || changes.email !== undefined) {
          await this.personalCollections.rename(tx, { ...user, ...changes });
        }
      }
      if (groups) await this.memberships.setGroups(user, groups, tx);
      else if (superuser !== undefined) await this.memberships.setSuperuser(user, superuser, tx);
    });
    return this.view(await this.get(id));
  }

  /**
   * Ends every other session of the user. Changing your own password (which needs the old one, admins included)
   * answers a new session key; the session making the request stays valid, so a browser is not logged out.
   */
  async changePassword(caller: AuthUser, id: number, dto: ChangePasswordDto): Promise<string | undefined> {
    assertSelfOrAdmin(caller, id);
    const self = caller.id === id;
    const user = await this.activePersonal(id);
    // Their identity provider holds their credentials: a password here would be a second way in that it cannot revoke.
    if (user.sso_source) throw new MessageError(SSO_PASSWORD);
    await this.assertPassword(dto.password);
    if (self && !(await verifyPassword(dto.old_password ?? '', await this.users.findPasswordHash(id)))) {
      throw new ValidationError({ old_password: 'Invalid password' });
    }
    const passwordHash = await hashPassword(dto.password);
    return this.users.transaction(async (tx) => {
      await this.users.update(id, { password_hash: passwordHash }, tx);
      await this.users.deleteSessions(id, tx, self ? caller.sessionKeyHash : undefined);
      if (!self) return undefined;
      const key = randomUUID();
      await this.users.insertSession(sha256Hex(key), id, tx);
      return key;
    });
  }

  /** Deactivation keeps the row (content keeps its owner) and ends every session at once. */
  async deactivate(caller: AuthUser, id: number): Promise<void> {
    await this.users.transaction(async (tx) => {
      const user = await this.users.findById(id, tx);
      if (!user || user.type !== 'personal') throw new NotFoundError();
      await this.memberships.assertNotLastAdmin(user, tx);
      if (user.id === caller.id) throw new MessageError('You cannot deactivate yourself.');
      await this.users.update(id, { is_active: false }, tx);
      await this.users.deleteSessions(id, tx);
    });
    // Every request checks the session and `is_active` in the app DB, so this holds everywhere already; the
    // event is for any instance that caches sessions or users.
    await this.events.publish({ topic: 'user', id });
  }

  /** As Metabase does, a user comes back without admin rights; an admin grants them again explicitly. */
  async reactivate(id: number): Promise<UserView> {
    await this.users.transaction(async (tx) => {
      const user = await this.users.findById(id, tx);
      if (!user || user.type !== 'personal') throw new NotFoundError();
      if (user.is_active) throw new MessageError('Not able to reactivate an active user');
      await this.memberships.setSuperuser(user, false, tx);
      await this.users.update(id, { is_active: true }, tx);
    });
    return this.view(await this.get(id));
  }

  private async activePersonal(id: number, tx?: EntityManager): Promise<User> {
    const user = await this.users.findById(id, tx);
    if (!user || !user.is_active || user.type !== 'personal') throw new NotFoundError();
    return user;
  }
}

function assertSelfOrAdmin(caller: AuthUser, id: number): void {
  if (caller.id !== id && !caller.isSuperuser) throw new ForbiddenError();
}

/** `en`, `pt-br`, `PT_BR` -> `en`, `pt_BR`. */
function normalizeLocale(locale: string): string {
  const [lang, country] = locale.split(/[-_]/);
  return country ? `${lang.toLowerCase()}_${country.toUpperCase()}` : lang.toLowerCase();
}
