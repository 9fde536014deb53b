import type { ExecutionContext } from '@nestjs/common';
import type { SettingsService } from '../settings/settings.service';
import type { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import type { SamlSsoService } from './saml/saml-sso.service';
import { SDK_DISABLED, SSO_NOT_CONFIGURED, SsoMethodGuard } from './sso-method.guard';
import type { SsoRequest } from './sso-request';

const JWT_ON = { 'jwt-enabled': true, 'jwt-shared-secret': 's'.repeat(32), 'jwt-identity-provider-uri': 'https://idp.test/jwt' };

function setup(values: Record<string, unknown>, samlOn = false) {
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) } as unknown as SettingsService;
  const jwtGuard = { canActivate: jest.fn(async () => true) } as unknown as JwtSsoAuthGuard;
  const saml = { usable: jest.fn(async () => samlOn) } as unknown as SamlSsoService;
  return { guard: new SsoMethodGuard(settings, jwtGuard, saml), jwtGuard };
}

function request(query: Record<string, string> = {}, headers: Record<string, string> = {}, body?: object): SsoRequest {
  const json = body !== undefined;
  return { query, headers: { host: 'analytics.test', ...headers }, body, is: (t: string) => (json && t === 'application/json' ? t : false) } as unknown as SsoRequest;
}
const ctx = (req: SsoRequest) => ({ switchToHttp: () => ({ getRequest: () => req }) }) as unknown as ExecutionContext;

describe('SsoMethodGuard', () => {
  it('refuses when no method is usable; JWT needs both the secret and the URI', async () => {
    await expect(setup({}).guard.canActivate(ctx(request()))).rejects.toThrow(SSO_NOT_CONFIGURED);
    await expect(setup({ ...JWT_ON, 'jwt-identity-provider-uri': null }).guard.canActivate(ctx(request()))).rejects.toThrow(SSO_NOT_CONFIGURED);
  });

  it('picks SAML by default when both are on, JWT when preferred or when a token came along', async () => {
    const { guard, jwtGuard } = setup(JWT_ON, true);
    let req = request();
    await guard.canActivate(ctx(req));
    expect(req.sso?.method).toBe('saml');
    req = request({ preferred_method: 'jwt' });
    await guard.canActivate(ctx(req));
    expect(req.sso?.method).toBe('jwt');
    expect(jwtGuard.canActivate).not.toHaveBeenCalled();
    req = request({}, {}, { jwt: 'a.b.c' });
    await guard.canActivate(ctx(req));
    expect(req.sso).toMatchObject({ method: 'jwt', jwtSecret: JWT_ON['jwt-shared-secret'], returnTo: '/' });
    expect(jwtGuard.canActivate).toHaveBeenCalledTimes(1);
  });

  it('refuses embedding clients while the SDK is off, and bad return_to', async () => {
    await expect(setup(JWT_ON).guard.canActivate(ctx(request({}, { 'x-metabase-client': 'embedding-sdk-react' })))).rejects.toThrow(SDK_DISABLED);
    const on = setup({ ...JWT_ON, 'enable-embedding-sdk': true });
    const req = request({ return_to: 'http://analytics.test/q/1' }, { 'x-metabase-client': 'embedding-sdk-react' });
    await on.guard.canActivate(ctx(req));
    expect(req.sso).toMatchObject({ embeddingClient: true, returnTo: 'http://analytics.test/q/1' });
    await expect(on.guard.canActivate(ctx(request({ return_to: 'https://evil.test/' })))).rejects.toThrow('Invalid redirect URL');
    await expect(setup({ ...JWT_ON, 'site-url': 'https://bi.example.com' }).guard.canActivate(ctx(request({ return_to: 'http://analytics.test/' })))).rejects.toThrow('Invalid redirect URL');
  });
});
