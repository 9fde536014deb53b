import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { loadConfig } from '../../config/app-config';
import { ForbiddenError, UnauthenticatedError } from '../errors/api-errors';
import { AppLogger } from '../logging/app-logger';
import { Access } from './access.decorator';
import { AuthGuard } from './auth.guard';
import { AuthRepository } from './auth.repository';
import type { SettingsReader } from '../settings/settings-reader';

class Routes {
  undeclared() {}
  @Access('user') user() {}
  @Access('admin') admin() {}
  @Access('public') open() {}
}

function ctx(handler: keyof Routes, headers: Record<string, string> = {}): ExecutionContext {
  const req = { headers, cookies: {}, path: '/api/x' };
  return {
    getHandler: () => Routes.prototype[handler],
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

describe('AuthGuard', () => {
  const repo = {
    userBySession: jest.fn(async (hash: string) => (hash ? { id: 7, is_superuser: false, group_ids: '1,3' } : undefined)),
    userByApiKey: jest.fn(async () => undefined),
  } as unknown as AuthRepository;
  const guard = new AuthGuard(new Reflector(), repo, {} as SettingsReader, loadConfig({}), new AppLogger('silent', 'memory'));

  it('refuses a route that declares no access level, even for a signed-in caller', async () => {
    await expect(guard.canActivate(ctx('undeclared', { 'x-metabase-session': 'k' }))).rejects.toBeInstanceOf(ForbiddenError);
  });

  it('lets anyone reach a public route', async () => {
    await expect(guard.canActivate(ctx('open'))).resolves.toBe(true);
  });

  it('wants credentials on user routes and a superuser on admin routes', async () => {
    await expect(guard.canActivate(ctx('user'))).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(guard.canActivate(ctx('user', { 'x-metabase-session': 'k' }))).resolves.toBe(true);
    await expect(guard.canActivate(ctx('admin', { 'x-metabase-session': 'k' }))).rejects.toBeInstanceOf(ForbiddenError);
  });
});
