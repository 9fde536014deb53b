import { ForbiddenError, MessageError, ValidationError } from '../../common/errors/api-errors';
import type { AppLogger } from '../../common/logging/app-logger';
import type { AppConfig } from '../../config/app-config';
import type { SettingsRepository, SettingsService } from '../settings';
import type { SessionsService } from '../sessions';

import type { UsersRepository, UsersService } from '../users';
import { SetupService } from './setup.service';

/** SetupService: the setup token exists only while nobody does, and is consumed by exactly one setup. */
describe('SetupService', () => {
  const dto = {
    token: 'tok-1',
    user: { email: 'ann@example.com', password: 'tulip-harbor-48', first_name: 'Ann' },
    prefs: { site_name: 'Ours' },
  };

  function setup(opts: { users?: number; token?: string | null; config?: Partial<AppConfig> } = {}) {
    let users = opts.users ?? 0;
    let token: string | null = opts.token === undefined ? 'tok-1' : opts.token;
    const inserted: Array<{ key: string; value: string }> = [];
    const tx = {};
    const settingRows = {
      claim: jest.fn(async (key: string, value: string) => {
        inserted.push({ key, value });
        if (token !== null) return false;
        token = value;
        return true;
      }),
      value: jest.fn(async () => token),
      consume: jest.fn(async (_key: string, value: string, inTx: unknown) => {
        expect(inTx).toBe(tx);
        if (token === null || value !== token) return false;
        token = null;
        return true;
      }),
    };
    const usersRepo = {
      count: jest.fn(async () => users),
      transaction: jest.fn(async (work: (t: typeof tx) => unknown) => work(tx)),
    };
    const usersService = {
      assertPassword: jest.fn(async (p: string) => {
        if (p.length < 6) throw ValidationError.of('password', 'too short');
      }),
      create: jest.fn(async () => ({ id: ++users })),
    };
    const sessions = { create: jest.fn().mockResolvedValue('session-key') };
    const settings = { setMany: jest.fn().mockResolvedValue(undefined) };
    const service = new SetupService(
      settingRows as unknown as SettingsRepository,
      usersRepo as unknown as UsersRepository,
      usersService as unknown as UsersService,
      sessions as unknown as SessionsService,
      settings as unknown as SettingsService,
      { adminEmail: undefined, adminPassword: undefined, ...opts.config } as AppConfig,
      { info: jest.fn() } as unknown as AppLogger,
    );
    return { service, usersService, sessions, settings, inserted, settingRows };
  }

  it('makes the first user an admin with a session, consuming the token, and stores the site preferences', async () => {
    const m = setup();
    await expect(m.service.setup(dto as never)).resolves.toBe('session-key');
    expect(m.usersService.create).toHaveBeenCalledWith(
      expect.objectContaining({ email: 'ann@example.com', is_superuser: true }),
      expect.anything(),
    );
    expect(m.settings.setMany).toHaveBeenCalledWith({ 'site-name': 'Ours' });
    // Once someone exists, the token is gone and setup refuses.
    await expect(m.service.pendingToken()).resolves.toBeNull();
    await expect(m.service.setup(dto as never)).rejects.toBeInstanceOf(ForbiddenError);
    expect(m.usersService.create).toHaveBeenCalledTimes(1);
  });

  it('refuses a wrong token with a 403, and a weak password before touching anything', async () => {
    const m = setup();
    const e = await m.service.setup({ ...dto, token: 'guess' } as never).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(MessageError);
    expect((e as MessageError).status).toBe(403);
    expect((e as MessageError).message).toBe('Token does not match the setup token.');
    await expect(m.service.setup({ ...dto, user: { ...dto.user, password: 'x' } } as never)).rejects.toBeInstanceOf(ValidationError);
    expect(m.usersService.create).not.toHaveBeenCalled();
    await expect(m.service.pendingToken()).resolves.toBe('tok-1');
  });

  it('on boot stores a token while nobody exists, or creates the admin from the environment instead', async () => {
    const fresh = setup({ token: null });
    await fresh.service.onApplicationBootstrap();
    expect(fresh.inserted).toEqual([{ key: 'setup-token', value: expect.stringMatching(/^[0-9a-f-]{36}$/) }]);
    await expect(fresh.service.pendingToken()).resolves.toBe(fresh.inserted[0].value);

    const existing = setup({ users: 1 });
    await existing.service.onApplicationBootstrap();
    expect(existing.inserted).toEqual([]);

    const fromEnv = setup({ config: { adminEmail: 'root@example.com', adminPassword: 'tulip-harbor-48' } });
    await fromEnv.service.onApplicationBootstrap();
    expect(fromEnv.usersService.create).toHaveBeenCalledWith(expect.objectContaining({ email: 'root@example.com', is_superuser: true }));
    expect(fromEnv.inserted).toEqual([]);

    const bad = setup({ config: { adminEmail: 'root@example.com', adminPassword: 'x' } });
    bad.usersService.create.mockRejectedValue(new Error('password: too short'));
    await expect(bad.service.onApplicationBootstrap()).rejects.toThrow('ADMIN_PASSWORD is not acceptable: password: too short');
  });
});
