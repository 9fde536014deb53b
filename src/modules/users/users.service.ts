import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { hashPassword } from '../../common/crypto/hashing';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings/settings.service';
import { PermissionsGroupMembership } from '../permissions/permissions-group-membership.entity';
import { assertPasswordAcceptable, PasswordComplexity } from './password-policy';
import { User, UserType } from './user.entity';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID, UsersRepository } from './users.repository';
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
  sso_source?: string | null;
  /** Extra groups besides All Users (and Administrators for superusers). */
  group_ids?: number[];
}

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
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
      if (await this.users.findByEmail(email, m)) {
        throw ValidationError.of('email', 'Email address already in use.', input.email);
      }
      const user = await m.save(
        m.create(User, {
          email,
          first_name: input.first_name ?? null,
          last_name: input.last_name ?? null,
          password_hash: passwordHash,
          is_superuser: Boolean(input.is_superuser),
          type: input.type ?? 'personal',
          login_attributes: input.login_attributes ?? null,
          sso_source: input.sso_source ?? null,
          locale: null,
          last_login: null,
        }),
      );
      const groups = new Set([ALL_USERS_GROUP_ID, ...(input.is_superuser ? [ADMIN_GROUP_ID] : []), ...(input.group_ids ?? [])]);
      await m.insert(PermissionsGroupMembership, [...groups].map((group_id) => ({ user_id: user.id, group_id, is_group_manager: false })));
      return user;
    };
    return tx ? work(tx) : this.users.transaction(work);
  }

  async get(id: number): Promise<User> {
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** The API shape of users, with their memberships fetched in one query. */
  async views(users: User[]): Promise<UserView[]> {
    const memberships = await this.users.memberships(users.map((u) => u.id));
    return users.map((u) => toUserView(u, memberships.get(u.id) ?? []));
  }

  async view(user: User): Promise<UserView> {
    return (await this.views([user]))[0];
  }

  async recordLogin(user: User): Promise<void> {
    await this.users.transaction((m) => m.update(User, { id: user.id }, { last_login: new Date() }));
  }
}
