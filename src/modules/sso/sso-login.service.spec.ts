import { MessageError } from '../../common/errors/api-errors';
import type { SessionsService } from '../sessions/sessions.service';
import type { SettingsService } from '../settings/settings.service';
import type { User } from '../../schema/user.entity';
import type { JwtSsoService } from './jwt/jwt-sso.service';
import { redirectTargets } from './return-to';
import type { SamlLogin, SamlSsoService } from './saml/saml-sso.service';
import { popupReturnTo, SDK_ORIGIN_REFUSED } from './saml/sdk-popup';
import { SsoLoginService } from './sso-login.service';
import type { SsoContext } from './sso-request';
import type { SsoUsersService } from './sso-users.service';

const SITE = 'https://bi.example';
const SDK_PAGE = 'https://app.customer.test';

function setup(over: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {
    'site-url': SITE,
    'enable-embedding-sdk': true,
    'embedding-app-origins-sdk': SDK_PAGE,
    'saml-user-provisioning-enabled?': true,
    'saml-group-sync': true,
    'saml-group-mappings': { analysts: [3] },
    ...over,
  };
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) };
  const user = { id: 42 } as User;
  const jwt = {
    signIn: jest.fn(async () => user),
    identityProviderUri: jest.fn(async () => 'https://idp.test/jwt'),
    identityProviderUrl: jest.fn(async (returnTo: string) => `https://idp.test/jwt?return_to=${encodeURIComponent(returnTo)}`),
  };
  const saml = { redirect: jest.fn(async (relay: string) => `https://idp.test/saml?RelayState=${encodeURIComponent(relay)}`) };
  const ssoUsers = { signIn: jest.fn(async () => user) };
  const sessions = { create: jest.fn(async () => 'session-key') };
  const service = new SsoLoginService(
    jwt as unknown as JwtSsoService,
    saml as unknown as SamlSsoService,
    ssoUsers as unknown as SsoUsersService,
    sessions as unknown as SessionsService,
    settings as unknown as SettingsService,
  );
  return { service, jwt, saml, ssoUsers, sessions, settings };
}

const context = (over: Partial<SsoContext> = {}): SsoContext => ({
  method: 'saml',
  embeddingClient: false,
  returnTo: '/',
  redirects: redirectTargets({ sdk: false, sdkOrigins: null, interactive: false, interactiveOrigins: null, siteUrl: SITE }),
  ...over,
});
const login = (returnTo: string | null): SamlLogin => ({
  email: 'ann@example.com',
  firstName: 'Ann',
  lastName: null,
  groups: ['analysts'],
  attributes: { team: 'north' },
  returnTo,
});

describe('SsoLoginService', () => {
  it('opens a session for the user the verified claims name', async () => {
    const { service, jwt, sessions } = setup();
    await expect(service.jwtSession({ email: 'ann@example.com', exp: 1 })).resolves.toBe('session-key');
    expect(jwt.signIn).toHaveBeenCalledWith({ email: 'ann@example.com', exp: 1 });
    expect(sessions.create).toHaveBeenCalledWith(42);
  });

  it('signs a SAML login in under the saml-* settings (provisioning, group sync and its mappings), then opens a session', async () => {
    const { service, ssoUsers, sessions } = setup();
    await expect(service.samlSession(login('/dashboard/2'), context())).resolves.toEqual({
      key: 'session-key',
      sdkPage: null,
      returnTo: '/dashboard/2',
    });
    expect(ssoUsers.signIn).toHaveBeenCalledWith(login('/dashboard/2'), {
      source: 'saml',
      provisioning: true,
      groupSync: true,
      groupMappings: { analysts: [3] },
    });
    expect(sessions.create).toHaveBeenCalledWith(42);
    const off = setup({ 'saml-group-sync': false, 'saml-group-mappings': null, 'saml-user-provisioning-enabled?': false });
    await off.service.samlSession(login(null), context());
    expect(off.ssoUsers.signIn).toHaveBeenCalledWith(login(null), {
      source: 'saml',
      provisioning: false,
      groupSync: false,
      groupMappings: {},
    });
  });

  it("hands SAML's tenant attribute on as the tenant claim (a list of one as its value), not as a user attribute", async () => {
    const { service, ssoUsers } = setup({ 'saml-attribute-tenant': 'org' });
    const withOrg = { ...login('/'), attributes: { team: 'north', org: ['acme'] } };
    await service.samlSession(withOrg, context());
    expect(ssoUsers.signIn).toHaveBeenCalledWith(
      { ...login('/'), attributes: { team: 'north' }, tenant: { claim: 'org', value: 'acme' } },
      expect.anything(),
    );
    // Several values are handed on as sent: the sign-in refuses them (not a string).
    await service.samlSession({ ...login('/'), attributes: { org: ['a', 'b'] } }, context());
    expect(ssoUsers.signIn).toHaveBeenLastCalledWith(
      expect.objectContaining({ tenant: { claim: 'org', value: ['a', 'b'] } }),
      expect.anything(),
    );
    // Without the attribute the login names no tenant.
    await service.samlSession(login('/'), context());
    expect(ssoUsers.signIn).toHaveBeenLastCalledWith(login('/'), expect.anything());
  });

  it('checks the return path a SAML request carried before anyone is signed in', async () => {
    const { service, ssoUsers, sessions } = setup();
    await expect(service.samlSession(login('https://evil.example/'), context())).rejects.toThrow('Invalid redirect URL');
    expect(ssoUsers.signIn).not.toHaveBeenCalled();
    expect(sessions.create).not.toHaveBeenCalled();
    await expect(service.samlSession(login('https://bi.example/q/1'), context())).resolves.toMatchObject({
      returnTo: 'https://bi.example/q/1',
    });
  });

  it("hands a popup login's session to the SDK page only while that page may still embed", async () => {
    const { service } = setup();
    await expect(service.samlSession(login(popupReturnTo(SDK_PAGE)), context())).resolves.toEqual({
      key: 'session-key',
      sdkPage: SDK_PAGE,
      returnTo: '/',
    });
    const since = setup({ 'embedding-app-origins-sdk': 'https://another.test' });
    const err = await since.service.samlSession(login(popupReturnTo(SDK_PAGE)), context()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MessageError);
    expect((err as MessageError).status).toBe(403);
    expect((err as MessageError).message).toBe(SDK_ORIGIN_REFUSED);
    expect(since.ssoUsers.signIn).not.toHaveBeenCalled();
  });

  it('says where each login starts', async () => {
    const { service, saml, jwt } = setup();
    await expect(service.identityProviderUrl(context({ returnTo: '/q/1' }), undefined)).resolves.toBe(
      'https://idp.test/saml?RelayState=%2Fq%2F1',
    );
    await service.identityProviderUrl(context({ embeddingClient: true }), SDK_PAGE);
    expect(saml.redirect).toHaveBeenLastCalledWith(popupReturnTo(SDK_PAGE));
    // No Origin: our own site (the site URL's), never the Host header.
    await service.identityProviderUrl(context({ embeddingClient: true }), undefined);
    expect(saml.redirect).toHaveBeenLastCalledWith(popupReturnTo(SITE));
    await expect(service.identityProviderUrl(context({ embeddingClient: true }), 'https://evil.test')).rejects.toThrow(SDK_ORIGIN_REFUSED);
    expect(saml.redirect).toHaveBeenCalledTimes(3);
    await expect(service.identityProviderUrl(context({ method: 'jwt', embeddingClient: true }), SDK_PAGE)).resolves.toBe(
      'https://idp.test/jwt',
    );
    await expect(service.identityProviderUrl(context({ method: 'jwt', returnTo: '/q/2' }), undefined)).resolves.toBe(
      'https://idp.test/jwt?return_to=%2Fq%2F2',
    );
    expect(jwt.identityProviderUrl).toHaveBeenCalledWith('/q/2');
  });
});
