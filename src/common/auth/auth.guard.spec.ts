import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../config/app-config';
import { ForbiddenError } from '../errors/api-errors';
import { AppLogger } from '../logging/app-logger';
import { Access } from './access.decorator';
import { AuthGuard } from './auth.guard';
import { AuthRepository } from './auth.repository';
import { CallerCache } from './caller-cache';
import type { AuthedRequest } from './current-user';

class Routes {
  undeclared() {}
  @Access('user') user() {}
  @Access('admin') admin() {}
  @Access('public') open() {}
  @Access('public-sharing') shared() {}
  @Access('embed') embedded() {}
}

function ctx(handler: keyof Routes, headers: Record<string, string> = {}): { ctx: ExecutionContext; req: AuthedRequest } {
  const req = { headers, cookies: {}, path: '/api/x' } as unknown as AuthedRequest;
  const context = {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
  return { ctx: context, req };
}

describe('AuthGuard (global: who is calling)', () => {
  const userBySession = jest.fn(async (hash: string) => (hash ? { id: 7, is_superuser: false, group_ids: '1,3' } : undefined));
  const repo = { userBySession, userByApiKey: jest.fn(async () => undefined) } as unknown as AuthRepository;
  const guard = new AuthGuard(
    new Reflector(),
    repo,
    loadConfig({}),
    new AppLogger('silent', 'memory'),
    new CallerCache({ subscribers: [] } as unknown as DataSource, { settingsRefreshSeconds: 60 }),
  );

  // Answers at once when there is nothing to look up, a promise otherwise; Nest awaits either.
  const activate = (c: ExecutionContext) => Promise.resolve().then(() => guard.canActivate(c));

  beforeEach(() => {
    userBySession.mockClear();
    guard['callers'].clear();
  });

  it('refuses a route that declares no access level, even for a signed-in caller', async () => {
    await expect(activate(ctx('undeclared', { 'x-metabase-session': 'k' }).ctx)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('identifies the caller and leaves the decision to the level guard', async () => {
    const anonymous = ctx('admin');
    await expect(activate(anonymous.ctx)).resolves.toBe(true);
    expect(anonymous.req.user).toBeUndefined();
    const signedIn = ctx('user', { 'x-metabase-session': 'k' });
    await expect(activate(signedIn.ctx)).resolves.toBe(true);
    expect(signedIn.req.user).toMatchObject({ id: 7, isSuperuser: false, groupIds: [1, 3] });
  });

  it('serves an open route anonymously when credentials cannot be checked, but not a user route', async () => {
    userBySession.mockRejectedValueOnce(new Error('app DB down'));
    const open = ctx('open', { 'x-metabase-session': 'k' });
    await expect(activate(open.ctx)).resolves.toBe(true);
    expect(open.req.user).toBeUndefined();
    userBySession.mockRejectedValueOnce(new Error('app DB down'));
    await expect(activate(ctx('user', { 'x-metabase-session': 'k' }).ctx)).rejects.toThrow('app DB down');
  });

  it('does not look up callers of link- and token-authorized routes', async () => {
    for (const handler of ['shared', 'embedded'] as const) {
      const c = ctx(handler, { 'x-metabase-session': 'k' });
      await expect(activate(c.ctx)).resolves.toBe(true);
      expect(c.req.user).toBeUndefined();
    }
    expect(userBySession).not.toHaveBeenCalled();
  });
});
