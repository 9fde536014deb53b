import type { AuthUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import type { AppConfig } from '../../config/app-config';
import type { UsersService } from '../users';
import type { UtilRepository } from './util.repository';
import { UtilService } from './util.service';

/** UtilService: tokens fit for the embedding secret, password checks by the current rules, anonymous stats. */
describe('UtilService', () => {
  function setup() {
    const repo = { insertFeedback: jest.fn().mockResolvedValue(undefined), usageCounts: jest.fn().mockResolvedValue({ users: 3 }) };
    const users = {
      assertPassword: jest.fn(async (p: unknown) => {
        if (p !== 'tulip-harbor-48') throw ValidationError.of('password', 'password is too common.');
      }),
    };
    return { service: new UtilService(repo as unknown as UtilRepository, users as unknown as UsersService, {} as AppConfig), repo };
  }

  it('makes 64 hexadecimal characters, different each time', () => {
    const { service } = setup();
    const a = service.randomToken().token;
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(service.randomToken().token).not.toBe(a);
  });

  it('checks a password with the rules of setting one, and stores feedback under the caller', async () => {
    const m = setup();
    await expect(m.service.checkPassword('tulip-harbor-48')).resolves.toEqual({ valid: true });
    await expect(m.service.checkPassword('password')).rejects.toBeInstanceOf(ValidationError);
    await m.service.saveFeedback({ source: 'app', comments: 'nice' } as never, { id: 7 } as AuthUser);
    expect(m.repo.insertFeedback).toHaveBeenCalledWith({ user_id: 7, source: 'app', comments: 'nice', email: null });
    await expect(m.service.stats()).resolves.toMatchObject({ stats: { users: 3 } });
  });
});
