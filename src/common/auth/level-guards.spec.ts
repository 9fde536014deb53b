import { CanActivate, Controller, ExecutionContext, Get } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA } from '@nestjs/common/constants';
import { ForbiddenError, MessageError, NotFoundError, UnauthenticatedError } from '../errors/api-errors';
import type { SettingsReader } from '../settings/settings-reader';
import { Access, ACCESS_KEY, LEVEL_GUARDS } from './access.decorator';
import { SSO_GUARD, type PublicLinkResolver } from './access-plugins';
import { AdminPreviewGuard } from './admin-preview.guard';
import type { AuthUser } from './current-user';
import { EmbedGuard } from './embed.guard';
import { PublicGuard } from './public.guard';
import { MalformedUuidError, PublicSharingGuard } from './public-sharing.guard';
import { SsoGuard } from './sso.guard';
import { SuperuserGuard } from './superuser.guard';
import { UserGuard } from './user.guard';

const UUID = '0b0c7a9e-4f5d-4c3b-9a8e-1d2c3b4a5f60';

function http(req: Record<string, unknown>): ExecutionContext {
  return { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}
const user = (isSuperuser: boolean): AuthUser => ({ id: 7, isSuperuser, groupIds: [1] });
const token = (answer: boolean | Error): CanActivate & { canActivate: jest.Mock } => ({
  canActivate: jest.fn(async () => {
    if (answer instanceof Error) throw answer;
    return answer;
  }),
});

describe('@Access', () => {
  it("applies its level's guard and no exception filter of its own (errors reach the wire through the global one)", () => {
    class Routes {
      @Access('user') u() {}
      @Access('public-sharing') p() {}
    }
    expect(Reflect.getMetadata(ACCESS_KEY, Routes.prototype.u)).toBe('user');
    expect(Reflect.getMetadata(GUARDS_METADATA, Routes.prototype.u)).toEqual([UserGuard]);
    expect(Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, Routes.prototype.u)).toBeUndefined();
    expect(Reflect.getMetadata(GUARDS_METADATA, Routes.prototype.p)).toEqual([PublicSharingGuard]);
    expect(Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, Routes.prototype.p)).toBeUndefined();
    expect(new Set(Object.values(LEVEL_GUARDS)).size).toBe(Object.keys(LEVEL_GUARDS).length);
  });
});

describe('PublicGuard', () => {
  it('lets anyone through', () => {
    expect(new PublicGuard().canActivate()).toBe(true);
  });
});

describe('UserGuard', () => {
  it('wants a caller the global guard identified', () => {
    expect(() => new UserGuard().canActivate(http({}))).toThrow(UnauthenticatedError);
    expect(new UserGuard().canActivate(http({ user: user(false) }))).toBe(true);
  });
});

describe('SuperuserGuard', () => {
  it('is 401 for nobody, 403 for a user, open to a superuser', () => {
    const guard = new SuperuserGuard();
    expect(() => guard.canActivate(http({}))).toThrow(UnauthenticatedError);
    expect(() => guard.canActivate(http({ user: user(false) }))).toThrow(ForbiddenError);
    expect(guard.canActivate(http({ user: user(true) }))).toBe(true);
  });
});

describe('PublicSharingGuard', () => {
  const setting = (on: unknown): SettingsReader => ({ get: jest.fn(async () => on) }) as unknown as SettingsReader;
  const resolver = (found: object | null) => ({ resolve: jest.fn(async () => found) }) satisfies PublicLinkResolver;

  it('refuses everything while public sharing is off, before reading the link', async () => {
    const links = resolver({ id: 1 });
    for (const off of [false, null, undefined, 'true']) {
      await expect(new PublicSharingGuard(setting(off), links).canActivate(http({ params: { uuid: UUID } }))).rejects.toBeInstanceOf(
        MessageError,
      );
    }
    expect(links.resolve).not.toHaveBeenCalled();
  });

  it('refuses a malformed UUID with its own message, without a look-up', async () => {
    const links = resolver({ id: 1 });
    for (const bad of ['nope', `${UUID}0`, UUID.replace(/-/g, ''), `${UUID.slice(0, 35)}g`, "' OR 1=1 --"]) {
      await expect(new PublicSharingGuard(setting(true), links).canActivate(http({ params: { uuid: bad } }))).rejects.toBeInstanceOf(
        MalformedUuidError,
      );
    }
    expect(links.resolve).not.toHaveBeenCalled();
  });

  it('is 404 when the UUID names nothing shared', async () => {
    await expect(
      new PublicSharingGuard(setting(true), resolver(null)).canActivate(http({ params: { uuid: UUID } })),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('hands the loaded object on, looked up in lower case', async () => {
    const links = resolver({ id: 5 });
    const req: Record<string, unknown> = { params: { uuid: UUID.toUpperCase() } };
    await expect(new PublicSharingGuard(setting(true), links).canActivate(http(req))).resolves.toBe(true);
    expect(links.resolve).toHaveBeenCalledWith(UUID, expect.anything());
    expect(req.shared).toEqual({ id: 5 });
  });

  it('needs only the setting on a route without a UUID', async () => {
    const links = resolver(null);
    await expect(new PublicSharingGuard(setting(true), links).canActivate(http({ params: {} }))).resolves.toBe(true);
    expect(links.resolve).not.toHaveBeenCalled();
  });
});

describe('EmbedGuard', () => {
  it("passes only what the embedding module's token guard accepts", async () => {
    await expect(new EmbedGuard(token(true)).canActivate(http({}))).resolves.toBe(true);
    await expect(new EmbedGuard(token(false)).canActivate(http({}))).resolves.toBe(false);
    await expect(new EmbedGuard(token(new MessageError('Message seems corrupt or manipulated'))).canActivate(http({}))).rejects.toThrow(
      'Message seems corrupt',
    );
  });
});

describe('AdminPreviewGuard', () => {
  it('wants a superuser before the preview token is even looked at', async () => {
    const check = token(true);
    await expect(new AdminPreviewGuard(check).canActivate(http({}))).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(new AdminPreviewGuard(check).canActivate(http({ user: user(false) }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(check.canActivate).not.toHaveBeenCalled();
    await expect(new AdminPreviewGuard(check).canActivate(http({ user: user(true) }))).resolves.toBe(true);
    await expect(new AdminPreviewGuard(token(false)).canActivate(http({ user: user(true) }))).resolves.toBe(false);
  });
});

describe('SsoGuard', () => {
  it("passes only what the SSO module's guard accepts", async () => {
    await expect(new SsoGuard(token(true)).canActivate(http({}))).resolves.toBe(true);
    await expect(new SsoGuard(token(false)).canActivate(http({}))).resolves.toBe(false);
    const truthy = { canActivate: jest.fn(async () => 'yes' as unknown as boolean) };
    await expect(new SsoGuard(truthy).canActivate(http({}))).resolves.toBe(false);
    await expect(new SsoGuard(token(new MessageError('Invalid redirect URL'))).canActivate(http({}))).rejects.toThrow(
      'Invalid redirect URL',
    );
  });

  it('fails closed: a module whose routes use the level without providing SSO_GUARD does not boot', async () => {
    @Controller('login')
    class LoginController {
      @Get()
      @Access('sso')
      start() {
        return 'open';
      }
    }
    await expect(Test.createTestingModule({ controllers: [LoginController] }).compile()).rejects.toThrow(/SsoGuard/);
    const check = token(true);
    const booted = await Test.createTestingModule({
      controllers: [LoginController],
      providers: [{ provide: SSO_GUARD, useValue: check }],
    }).compile();
    await expect(booted.get(SsoGuard).canActivate(http({}))).resolves.toBe(true);
    expect(check.canActivate).toHaveBeenCalledTimes(1);
    await booted.close();
  });
});
