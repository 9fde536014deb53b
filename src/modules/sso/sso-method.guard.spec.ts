import type { ExecutionContext } from '@nestjs/common';
import type { SettingsService } from '../settings/settings.service';
import type { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import { JwtSsoService } from './jwt/jwt-sso.service';
import type { SamlSsoAuthGuard } from './saml/saml-sso.guard';
import type { SamlSsoService } from './saml/saml-sso.service';
import { SDK_DISABLED, SSO_NOT_CONFIGURED, SsoMethodGuard } from './sso-method.guard';
import type { SsoRequest } from './sso-request';
import type { SsoUsersService } from './sso-users.service';

const JWT_ON = { 'jwt-enabled': true, 'jwt-shared-secret': 's'.repeat(32), 'jwt-identity-provider-uri': 'https://idp.test/jwt' };

function setup(values: Record<string, unknown>, samlOn = false) {
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) } as unknown as SettingsService;
  const jwtGuard = { canActivate: jest.fn(async () => true) } as unknown as JwtSsoAuthGuard;
  const samlGuard = { canActivate: jest.fn(async () => true) } as unknown as SamlSsoAuthGuard;
  const saml = { usable: jest.fn(async () => samlOn) } as unknown as SamlSsoService;
  const jwt = new JwtSsoService(settings, {} as SsoUsersService);
  return { guard: new SsoMethodGuard(settings, jwt, saml, jwtGuard, samlGuard), jwtGuard, samlGuard };
}

function request(query: Record<string, string> = {}, headers: Record<string, string> = {}, body?: object, method = 'GET'): SsoRequest {
  const json = body !== undefined;
  return {
    method,
    query,
    headers: { host: 'analytics.test', ...headers },
    body,
    is: (t: string) => (json && t === 'application/json' ? t : false),
  } as unknown as SsoRequest;
}
const ctx = (req: SsoRequest) => ({ switchToHttp: () => ({ getRequest: () => req }) }) as unknown as ExecutionContext;

describe('SsoMethodGuard', () => {
  it('refuses when no method is usable; JWT needs both the secret and the URI', async () => {
    await expect(setup({}).guard.canActivate(ctx(request()))).rejects.toThrow(SSO_NOT_CONFIGURED);
    await expect(setup({ ...JWT_ON, 'jwt-identity-provider-uri': null }).guard.canActivate(ctx(request()))).rejects.toThrow(
      SSO_NOT_CONFIGURED,
    );
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
    expect(req.sso).toMatchObject({ method: 'jwt', returnTo: '/' });
    // The strategy reads the secret itself: nothing secret travels on the request.
    expect(JSON.stringify(req.sso)).not.toContain(JWT_ON['jwt-shared-secret']);
    expect(jwtGuard.canActivate).toHaveBeenCalledTimes(1);
  });

  it("has SAML's strategy verify a posted SAMLResponse, and only that", async () => {
    const { guard, jwtGuard, samlGuard } = setup(JWT_ON, true);
    await guard.canActivate(ctx(request({ SAMLResponse: 'PHI+' })));
    await guard.canActivate(ctx(request({}, {}, {}, 'POST')));
    expect(samlGuard.canActivate).not.toHaveBeenCalled();
    const req = request({}, {}, { SAMLResponse: 'PHI+' }, 'POST');
    await guard.canActivate(ctx(req));
    expect(req.sso?.method).toBe('saml');
    expect(samlGuard.canActivate).toHaveBeenCalledTimes(1);
    expect(jwtGuard.canActivate).not.toHaveBeenCalled();
    (samlGuard.canActivate as jest.Mock).mockResolvedValueOnce(false);
    await expect(guard.canActivate(ctx(request({}, {}, { SAMLResponse: 'PHI+' }, 'POST')))).resolves.toBe(false);
  });

  it('refuses embedding clients while the SDK is off, and bad return_to', async () => {
    await expect(setup(JWT_ON).guard.canActivate(ctx(request({}, { 'x-metabase-client': 'embedding-sdk-react' })))).rejects.toThrow(
      SDK_DISABLED,
    );
    const on = setup({ ...JWT_ON, 'enable-embedding-sdk': true, 'site-url': 'http://analytics.test' });
    const req = request({ return_to: 'http://analytics.test/q/1' }, { 'x-metabase-client': 'embedding-sdk-react' });
    await on.guard.canActivate(ctx(req));
    expect(req.sso).toMatchObject({ embeddingClient: true, returnTo: 'http://analytics.test/q/1' });
    await expect(on.guard.canActivate(ctx(request({ return_to: 'https://evil.test/' })))).rejects.toThrow('Invalid redirect URL');
    await expect(
      setup({ ...JWT_ON, 'site-url': 'https://bi.example.com' }).guard.canActivate(ctx(request({ return_to: 'http://analytics.test/' }))),
    ).rejects.toThrow('Invalid redirect URL');
  });

  it('takes no absolute return_to on the Host header alone: without a site URL only paths (and embedding origins)', async () => {
    const { guard } = setup({ ...JWT_ON, 'enable-embedding-sdk': true, 'embedding-app-origins-sdk': 'https://app.customer.test' });
    await expect(guard.canActivate(ctx(request({ return_to: 'http://analytics.test/q/1' })))).rejects.toThrow('Invalid redirect URL');
    await expect(
      guard.canActivate(ctx(request({ return_to: 'http://evil.example/after-login' }, { host: 'evil.example' }))),
    ).rejects.toThrow('Invalid redirect URL');
    const req = request({ return_to: 'https://app.customer.test/after-login' });
    await guard.canActivate(ctx(req));
    expect(req.sso?.returnTo).toBe('https://app.customer.test/after-login');
  });
});
