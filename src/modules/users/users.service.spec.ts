import { QueryFailedError } from 'typeorm';
import type { AuthUser } from '../../common/auth/current-user';
import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { hashPassword, sha256Hex } from '../../common/crypto/hashing';
import { ForbiddenError, MessageError, NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../schema/permissions-group.entity';
import type { User } from '../../schema/user.entity';
import type { PersonalCollectionsService } from '../collections';
import type { MembershipsService } from '../permissions';
import type { SettingsService } from '../settings';
import type { UsersRepository } from './users.repository';
import { SSO_PASSWORD, UsersService } from './users.service';

/** UsersService's rules on who may change what, emails, passwords and (de)activation, with the repository mocked. */
describe('UsersService', () => {
  const admin = { id: 1, isSuperuser: true, groupIds: [] } as unknown as AuthUser;
  const self = { id: 7, isSuperuser: false, groupIds: [], sessionKeyHash: 'current-session' } as unknown as AuthUser;
  const person = (over: Partial<User> = {}) =>
    ({
      id: 7,
      email: 'ann@example.com',
      first_name: 'Ann',
      last_name: null,
      is_active: true,
      is_superuser: false,
      type: 'personal',
      sso_source: null,
      login_attributes: null,
      locale: null,
      ...over,
    }) as User;

  function setup(opts: { user?: User | null; byEmail?: User | null; passwordHash?: string } = {}) {
    const user = opts.user === undefined ? person() : opts.user;
    const inserted: unknown[] = [];
    const tx = {
      create: jest.fn((_e: unknown, v: Partial<User>) => ({ ...v })),
      save: jest.fn(async (v: Partial<User>) => ({ ...v, id: 30 })),
      insert: jest.fn(async (_e: unknown, rows: unknown[]) => void inserted.push(...rows)),
    };
    const users = {
      transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)),
      findByEmail: jest.fn().mockResolvedValue(opts.byEmail ?? null),
      findById: jest.fn().mockResolvedValue(user),
      findPasswordHash: jest.fn().mockResolvedValue(opts.passwordHash ?? null),
      update: jest.fn().mockResolvedValue(undefined),
      deleteSessions: jest.fn().mockResolvedValue(undefined),
      insertSession: jest.fn().mockResolvedValue(undefined),
      memberships: jest.fn().mockResolvedValue(new Map()),
    };
    const settings = { get: jest.fn(async () => 'normal') };
    const memberships = {
      setGroups: jest.fn().mockResolvedValue(undefined),
      setSuperuser: jest.fn().mockResolvedValue(undefined),
      assertNotLastAdmin: jest.fn().mockResolvedValue(undefined),
    };
    const personal = {
      create: jest.fn().mockResolvedValue(undefined),
      rename: jest.fn().mockResolvedValue(undefined),
      idsFor: jest.fn().mockResolvedValue(new Map()),
    };
    const events = { publish: jest.fn().mockResolvedValue(undefined) };
    const service = new UsersService(
      users as unknown as UsersRepository,
      settings as unknown as SettingsService,
      memberships as unknown as MembershipsService,
      personal as unknown as PersonalCollectionsService,
      events as unknown as ClusterEvents,
    );
    return { service, users, tx, memberships, personal, events, inserted };
  }
  const errorsOf = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).errors;
  };

  it('creates with a lower-cased email, the built-in groups and a personal collection; a taken email is refused', async () => {
    const m = setup();
    await m.service.create({
      email: '  Bob@Example.COM ',
      password: 'tulip-harbor-48',
      is_superuser: true,
      group_ids: [5, ALL_USERS_GROUP_ID],
    });
    expect(m.tx.save).toHaveBeenCalledWith(expect.objectContaining({ email: 'bob@example.com', is_superuser: true, type: 'personal' }));
    expect(m.tx.save.mock.calls[0][0].password_hash).toMatch(/^scrypt\$/);
    expect(m.inserted).toEqual(
      [ALL_USERS_GROUP_ID, ADMIN_GROUP_ID, 5].map((group_id) => ({ user_id: 30, group_id, is_group_manager: false })),
    );
    expect(m.personal.create).toHaveBeenCalledWith(m.tx, expect.objectContaining({ id: 30 }));

    const taken = setup({ byEmail: person() });
    expect(await errorsOf(taken.service.create({ email: 'ann@example.com' }))).toEqual({ email: 'Email address already in use.' });

    // A concurrent insert that wins the race on the unique index answers the same.
    const raced = setup();
    raced.tx.save.mockRejectedValue(new QueryFailedError('INSERT', [], Object.assign(new Error('dup'), { code: '23505' })));
    expect(await errorsOf(raced.service.create({ email: 'new@example.com' }))).toEqual({ email: 'Email address already in use.' });

    expect(await errorsOf(setup().service.create({ email: 'c@example.com', password: 'abcdef' }))).toHaveProperty('password');
  });

  it('lets users change only their own account and never their admin-only keys', async () => {
    const m = setup();
    await expect(m.service.update(self, 8, { first_name: 'X' } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.update(self, 7, { is_superuser: true } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.update(self, 7, { user_group_memberships: [] } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(m.service.update(self, 7, { login_attributes: { region: 'x' } } as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.users.transaction).not.toHaveBeenCalled();

    const sso = setup({ user: person({ sso_source: 'saml' }) });
    await expect(sso.service.update(self, 7, { email: 'other@example.com' } as never)).rejects.toBeInstanceOf(ForbiddenError);
    await sso.service.update(admin, 7, { email: 'Other@Example.com' } as never);
    expect(sso.users.update).toHaveBeenCalledWith(7, { email: 'other@example.com' }, sso.tx);
  });

  it('refuses is_superuser that contradicts the groups sent, and sets groups or the admin flag as sent', async () => {
    const m = setup();
    expect(await errorsOf(m.service.update(admin, 7, { is_superuser: true, user_group_memberships: [{ id: 5 }] } as never))).toEqual({
      is_superuser: 'Value of is_superuser must correspond to presence of Admin group ID in group_ids.',
    });
    await m.service.update(admin, 7, { is_superuser: true, user_group_memberships: [{ id: ADMIN_GROUP_ID }] } as never);
    expect(m.memberships.setGroups).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), [{ id: ADMIN_GROUP_ID }], m.tx);
    expect(m.memberships.setSuperuser).not.toHaveBeenCalled();
    await m.service.update(admin, 7, { is_superuser: false } as never);
    expect(m.memberships.setSuperuser).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), false, m.tx);
  });

  it('normalizes the locale, refuses an email in use, and renames the personal collection only when the name changes', async () => {
    const m = setup();
    await m.service.update(self, 7, { locale: 'pt-br' } as never);
    expect(m.users.update).toHaveBeenCalledWith(7, { locale: 'pt_BR' }, m.tx);
    expect(m.personal.rename).not.toHaveBeenCalled();

    await m.service.update(self, 7, { last_name: 'Lee' } as never);
    expect(m.personal.rename).toHaveBeenCalledWith(m.tx, expect.objectContaining({ first_name: 'Ann', last_name: 'Lee' }));

    const taken = setup({ byEmail: person({ id: 9 }) });
    expect(await errorsOf(taken.service.update(self, 7, { email: 'bob@example.com' } as never))).toEqual({
      email: 'Email address already associated to another user.',
    });
    await expect(setup({ user: person({ is_active: false }) }).service.update(admin, 7, {} as never)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('changes a password: SSO users have none, your own needs the old one and keeps your session, an admin ends all', async () => {
    const sso = setup({ user: person({ sso_source: 'jwt' }) });
    const e = await sso.service.changePassword(self, 7, { password: 'new-pass1' } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).message).toBe(SSO_PASSWORD);

    const hash = await hashPassword('old-pass1');
    const wrong = setup({ passwordHash: hash });
    expect(await errorsOf(wrong.service.changePassword(self, 7, { password: 'new-pass1', old_password: 'nope' } as never))).toEqual({
      old_password: 'Invalid password',
    });
    expect(wrong.users.update).not.toHaveBeenCalled();

    const mine = setup({ passwordHash: hash });
    const key = await mine.service.changePassword(self, 7, { password: 'new-pass1', old_password: 'old-pass1' } as never);
    expect(mine.users.deleteSessions).toHaveBeenCalledWith(7, mine.tx, 'current-session');
    expect(mine.users.insertSession).toHaveBeenCalledWith(sha256Hex(key!), 7, mine.tx);

    const byAdmin = setup();
    await expect(byAdmin.service.changePassword(admin, 7, { password: 'new-pass1' } as never)).resolves.toBeUndefined();
    expect(byAdmin.users.deleteSessions).toHaveBeenCalledWith(7, byAdmin.tx, undefined);
    expect(byAdmin.users.insertSession).not.toHaveBeenCalled();
  });

  it('deactivates others (never yourself) and tells the other instances; reactivation drops admin rights', async () => {
    const me = setup({ user: person({ id: 1 }) });
    const e = await me.service.deactivate(admin, 1).catch((x: unknown) => x);
    expect((e as MessageError).message).toBe('You cannot deactivate yourself.');
    expect(me.users.update).not.toHaveBeenCalled();

    const m = setup();
    await m.service.deactivate(admin, 7);
    expect(m.users.update).toHaveBeenCalledWith(7, { is_active: false }, m.tx);
    expect(m.users.deleteSessions).toHaveBeenCalledWith(7, m.tx);
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'user', id: 7 });
    await expect(setup({ user: person({ type: 'api-key' } as Partial<User>) }).service.deactivate(admin, 7)).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const active = setup();
    expect(((await active.service.reactivate(7).catch((x: unknown) => x)) as MessageError).message).toBe(
      'Not able to reactivate an active user',
    );
    const back = setup({ user: person({ is_active: false, is_superuser: true }) });
    await back.service.reactivate(7);
    expect(back.memberships.setSuperuser).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }), false, back.tx);
    expect(back.users.update).toHaveBeenCalledWith(7, { is_active: true }, back.tx);
  });

  it('shows a deactivated user to nobody and an API key user only to itself', async () => {
    await expect(setup({ user: person({ is_active: false }) }).service.viewFor(admin, 7)).rejects.toBeInstanceOf(NotFoundError);
    const key = setup({ user: person({ id: 1, type: 'api-key' } as Partial<User>) });
    await expect(key.service.viewFor(admin, 1)).resolves.toMatchObject({ id: 1 });
    const other = setup({ user: person({ id: 8, type: 'api-key' } as Partial<User>) });
    await expect(other.service.viewFor(admin, 8)).rejects.toBeInstanceOf(NotFoundError);
    await expect(setup().service.viewFor(self, 8)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
