import type { ExecutionContext } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import passport from 'passport';
import { MessageError, UnauthenticatedError } from '../../../common/errors/api-errors';
import type { SettingsService } from '../../settings/settings.service';
import type { SsoUsersService } from '../sso-users.service';
import { JwtSsoAuthGuard } from './jwt-sso.guard';
import { JwtSsoService } from './jwt-sso.service';
import { JWT_SSO_STRATEGY } from './jwt-sso.strategy';

const SECRET = 'a-shared-secret-of-enough-length';

/** A guard over a JwtSsoService that reads these settings (what the admin set for one app instance). */
function guardWith(values: Record<string, unknown>) {
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) } as unknown as SettingsService;
  return new JwtSsoAuthGuard(new JwtSsoService(settings, {} as SsoUsersService));
}
const on = (secret = SECRET) => ({ 'jwt-enabled': true, 'jwt-shared-secret': secret, 'jwt-identity-provider-uri': 'https://idp.test/jwt' });

type Req = Record<string, unknown>;
function request(query: Record<string, string>, body?: object, type = 'application/json'): Req {
  return { query, body, headers: {}, is: (t: string) => (body !== undefined && t === type ? t : false) };
}
const ctx = (req: Req) => ({ switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }) }) as unknown as ExecutionContext;
/** Ten minutes of life unless the claims carry their own `exp`. */
const sign = (claims: object, opts: jwt.SignOptions = {}, secret = SECRET) =>
  jwt.sign(claims, secret, { algorithm: 'HS256', ...('exp' in claims ? {} : { expiresIn: 600 }), ...opts });

async function refusal(guard: JwtSsoAuthGuard, req: Req): Promise<Error> {
  const err = await guard.canActivate(ctx(req)).then(
    () => null,
    (e: unknown) => e as Error,
  );
  if (!err) throw new Error('accepted');
  expect(req.ssoJwtClaims).toBeUndefined();
  return err;
}

describe('JwtSsoStrategy, run by JwtSsoAuthGuard', () => {
  it('hands the verified claims of a token in the query or a JSON body to the controller', async () => {
    const guard = guardWith(on());
    const fromQuery = request({ jwt: sign({ email: 'a@b.test' }) });
    await expect(guard.canActivate(ctx(fromQuery))).resolves.toBe(true);
    expect(fromQuery.ssoJwtClaims).toMatchObject({ email: 'a@b.test' });
    const fromBody = request({}, { jwt: sign({ email: 'c@d.test' }) });
    await guard.canActivate(ctx(fromBody));
    expect(fromBody.ssoJwtClaims).toMatchObject({ email: 'c@d.test' });
  });

  it('refuses without a token, and never reads one from a form (which any site can post)', async () => {
    const guard = guardWith(on());
    expect(await refusal(guard, request({}))).toBeInstanceOf(UnauthenticatedError);
    const form = request({}, { jwt: sign({ email: 'a@b.test' }) }, 'application/x-www-form-urlencoded');
    expect(await refusal(guard, form)).toBeInstanceOf(UnauthenticatedError);
  });

  it('keeps the reason of a refused token: HS256 pinned, `alg: none` refused, exp checked', async () => {
    const guard = guardWith(on());
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const cases: Array<[string, string]> = [
      [sign({ email: 'a@b.test' }, { algorithm: 'HS512' }), 'Message seems corrupt or manipulated'],
      [`${b64({ alg: 'none', typ: 'JWT' })}.${b64({ email: 'a@b.test', exp: 9_999_999_999 })}.`, 'Message seems corrupt or manipulated'],
      [sign({ email: 'a@b.test', exp: Math.floor(Date.now() / 1000) - 120 }), 'Token is expired'],
      [sign({ email: 'a@b.test' }, {}, 'another-secret-of-enough-length!'), 'Message seems corrupt or manipulated'],
    ];
    for (const [token, message] of cases) {
      const err = await refusal(guard, request({ jwt: token }));
      expect(err).toBeInstanceOf(MessageError);
      expect((err as MessageError).status).toBe(401);
      expect(err.message).toBe(message);
    }
  });

  it('reads the secret of its own instance at request time: switched off, or another secret, refuses', async () => {
    const token = sign({ email: 'a@b.test' });
    expect(await refusal(guardWith({ ...on(), 'jwt-enabled': false }), request({ jwt: token }))).toBeInstanceOf(UnauthenticatedError);
    // Two app instances in one process, each with its secret: each guard verifies with its own.
    const mine = guardWith(on());
    const other = guardWith(on('the-other-instance-secret-value!'));
    await expect(mine.canActivate(ctx(request({ jwt: token })))).resolves.toBe(true);
    expect((await refusal(other, request({ jwt: token }))).message).toBe('Message seems corrupt or manipulated');
  });

  it("is registered nowhere in passport's process-wide registry", () => {
    guardWith(on());
    expect((passport as unknown as { _strategy(name: string): unknown })._strategy(JWT_SSO_STRATEGY)).toBeUndefined();
  });
});
