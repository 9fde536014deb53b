import type { Request, Response } from 'express';
import type { ClusterEvents } from '../../common/cluster/cluster-events';
import { hashPassword, sha256Hex } from '../../common/crypto/hashing';
import { InvalidCredentialsError, TooManyAttemptsError } from '../../common/errors/api-errors';
import type { AppConfig } from '../../config/app-config';
import type { LoginFailure } from '../../schema/login-attempt.entity';
import type { User } from '../../schema/user.entity';
import type { SettingsService } from '../settings';
import type { UsersRepository, UsersService } from '../users';
import type { SessionsRepository } from './sessions.repository';
import { SessionsService, THROTTLE } from './sessions.service';

/** SessionsService: the login throttle and who may sign in with a password; attempts kept in memory, users mocked. */
describe('SessionsService', () => {
  const IP = '10.0.0.1';
  let hash: string;
  beforeAll(async () => {
    hash = await hashPassword('right-pass1');
  });
  const person = (over: Partial<User> = {}) =>
    ({
      id: 7,
      email: 'ann@example.com',
      type: 'personal',
      sso_source: null,
      is_active: true,
      is_superuser: false,
      password_hash: hash,
      ...over,
    }) as User;
  const failures = (n: number, username: string, ip: string, agoMs: (i: number) => number) =>
    Array.from({ length: n }, (_, i) => ({ id: i + 1, username, ip, created_at: new Date(Date.now() - agoMs(i)) }) as LoginFailure);

  function setup(opts: { before?: LoginFailure[]; user?: User | null; passwordLogin?: boolean } = {}) {
    const sessions = {
      recordAttempt: jest.fn().mockResolvedValue(99),
      attemptsBefore: jest.fn().mockResolvedValue(opts.before ?? []),
      forget: jest.fn().mockResolvedValue(undefined),
      pruneBefore: jest.fn().mockResolvedValue(undefined),
      clearPair: jest.fn().mockResolvedValue(undefined),
      create: jest.fn().mockResolvedValue(undefined),
      delete: jest.fn().mockResolvedValue(undefined),
    };
    const users = { findForLogin: jest.fn().mockResolvedValue(opts.user === undefined ? person() : opts.user) };
    const usersService = { recordLogin: jest.fn().mockResolvedValue(undefined) };
    const settings = {
      get: jest.fn(async (key: string): Promise<unknown> => (key === 'enable-password-login' ? (opts.passwordLogin ?? true) : 'lax')),
    };
    const events = { publish: jest.fn().mockResolvedValue(undefined) };
    const service = new SessionsService(
      sessions as unknown as SessionsRepository,
      users as unknown as UsersRepository,
      usersService as unknown as UsersService,
      settings as unknown as SettingsService,
      { maxSessionAgeMinutes: 60 } as AppConfig,
      events as unknown as ClusterEvents,
    );
    return { service, sessions, users, usersService, settings, events };
  }
  const refusal = async (p: Promise<unknown>) => {
    const e = await p.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TooManyAttemptsError);
    return (e as TooManyAttemptsError).retryAfterSeconds;
  };

  it('signs in with the right password: a session key whose hash is stored, the pair cleared, the login recorded', async () => {
    const m = setup();
    const key = await m.service.login('  Ann@Example.com ', 'right-pass1', IP);
    expect(m.sessions.recordAttempt).toHaveBeenCalledWith('ann@example.com', IP, expect.any(Date));
    expect(m.sessions.create).toHaveBeenCalledWith(sha256Hex(key), 7, undefined);
    expect(m.sessions.clearPair).toHaveBeenCalledWith('ann@example.com', IP);
    expect(m.usersService.recordLogin).toHaveBeenCalled();
  });

  it('refuses a wrong password, an unknown user, SSO and API key users alike, keeping the attempt as a failure', async () => {
    for (const [user, password] of [
      [person(), 'wrong-pass1'],
      [null, 'right-pass1'],
      [person({ sso_source: 'saml' }), 'right-pass1'],
      [person({ type: 'api-key' } as Partial<User>), 'right-pass1'],
    ] as const) {
      const m = setup({ user });
      const e = await m.service.login('ann@example.com', password, IP).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidCredentialsError);
      expect((e as InvalidCredentialsError).body()).toEqual({ errors: { password: 'did not match stored password' } });
      expect(m.sessions.forget).not.toHaveBeenCalled();
      expect(m.sessions.create).not.toHaveBeenCalled();
    }
  });

  it('tells a disabled account apart only once the password is right, and lets only admins in while password login is off', async () => {
    const disabled = setup({ user: person({ is_active: false }) });
    const e = await disabled.service.login('ann@example.com', 'right-pass1', IP).catch((x: unknown) => x);
    expect((e as InvalidCredentialsError).body()).toEqual({
      errors: { password: 'Your account is disabled. Please contact your administrator.' },
    });

    const off = setup({ passwordLogin: false });
    const o = await off.service.login('ann@example.com', 'right-pass1', IP).catch((x: unknown) => x);
    expect((o as InvalidCredentialsError).body()).toEqual({ errors: { password: 'Password login is disabled for this instance.' } });
    await expect(
      setup({ passwordLogin: false, user: person({ is_superuser: true }) }).service.login('ann@example.com', 'right-pass1', IP),
    ).resolves.toEqual(expect.any(String));
  });

  it('throttles a username and address after their failures until the oldest counted expires, and forgets the throttled try', async () => {
    const m = setup({ before: failures(THROTTLE.perPair, 'ann@example.com', IP, (i) => 60_000 - i) });
    const wait = await refusal(m.service.login('ann@example.com', 'right-pass1', IP));
    expect(wait).toBeGreaterThan(THROTTLE.windowMs / 1000 - 62);
    expect(wait).toBeLessThanOrEqual(THROTTLE.windowMs / 1000 - 59);
    expect(m.sessions.forget).toHaveBeenCalledWith(99);
    expect(m.users.findForLogin).not.toHaveBeenCalled();
    // Another address is not held back by this pair.
    await expect(
      setup({ before: failures(THROTTLE.perPair, 'ann@example.com', '10.9.9.9', () => 60_000) }).service.login(
        'ann@example.com',
        'right-pass1',
        IP,
      ),
    ).resolves.toEqual(expect.any(String));
  });

  it('throttles an address spraying many usernames', async () => {
    const spray = Array.from({ length: THROTTLE.perIp }, (_, i) => failures(1, `user${i}@example.com`, IP, () => 1000)[0]);
    await refusal(setup({ before: spray }).service.login('ann@example.com', 'right-pass1', IP));
  });

  it('slows a username tried from many addresses, doubling from 1 s after the latest failure, without locking it out', async () => {
    const many = (n: number, latestAgo: number) =>
      Array.from({ length: n }, (_, i) => failures(1, 'ann@example.com', `10.1.0.${i}`, () => (i === n - 1 ? latestAgo : 600_000))[0]);
    expect(await refusal(setup({ before: many(THROTTLE.perUser, 200) }).service.login('ann@example.com', 'right-pass1', IP))).toBe(1);
    expect(await refusal(setup({ before: many(THROTTLE.perUser + 2, 200) }).service.login('ann@example.com', 'right-pass1', IP))).toBe(4);
    // Once the delay after the latest failure has passed, the right password gets in.
    await expect(setup({ before: many(THROTTLE.perUser + 2, 5000) }).service.login('ann@example.com', 'right-pass1', IP)).resolves.toEqual(
      expect.any(String),
    );
    // The delay stops growing at the maximum.
    expect(await refusal(setup({ before: many(40, 0) }).service.login('ann@example.com', 'right-pass1', IP))).toBe(
      THROTTLE.maxUserDelayMs / 1000,
    );
  });

  it('sets the session cookie HttpOnly with the SameSite setting, Secure over HTTPS and always with None', async () => {
    const cookie = jest.fn();
    const m = setup();
    await m.service.setCookie({ secure: false } as Request, { cookie } as unknown as Response, 'k');
    expect(cookie).toHaveBeenCalledWith('metabase.SESSION', 'k', {
      httpOnly: true,
      path: '/',
      sameSite: 'lax',
      secure: false,
      maxAge: 3_600_000,
    });
    m.settings.get.mockResolvedValue('none');
    await m.service.setCookie({ secure: false } as Request, { cookie } as unknown as Response, 'k');
    expect(cookie.mock.calls[1][2]).toMatchObject({ sameSite: 'none', secure: true });
  });

  it('announces a logout by a prefix of the key hash, never the key', async () => {
    const m = setup();
    await m.service.logout('a'.repeat(64));
    expect(m.sessions.delete).toHaveBeenCalledWith('a'.repeat(64));
    expect(m.events.publish).toHaveBeenCalledWith({ topic: 'session', id: 'a'.repeat(16) });
  });
});
