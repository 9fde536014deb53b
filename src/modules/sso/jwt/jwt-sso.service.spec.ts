import { MessageError } from '../../../common/errors/api-errors';
import type { SettingsService } from '../../settings';
import type { SsoUsersService } from '../sso-users.service';
import { JwtSsoService } from './jwt-sso.service';

/** JwtSsoService: when JWT sign-in is usable, and how verified claims become a user; settings and SSO users mocked. */
describe('JwtSsoService', () => {
  function setup(over: Record<string, unknown> = {}) {
    const values: Record<string, unknown> = {
      'jwt-enabled': true,
      'jwt-shared-secret': 's'.repeat(32),
      'jwt-identity-provider-uri': 'https://idp.example/login?app=bi',
      'jwt-attribute-email': 'mail',
      'jwt-attribute-firstname': 'given',
      'jwt-attribute-lastname': 'family',
      'jwt-attribute-groups': 'roles',
      'jwt-user-provisioning-enabled?': true,
      'jwt-group-sync': true,
      'jwt-group-mappings': { analysts: [5] },
      ...over,
    };
    const settings = { get: jest.fn(async (k: string) => values[k] ?? null) };
    const ssoUsers = { signIn: jest.fn().mockResolvedValue({ id: 42 }) };
    return { service: new JwtSsoService(settings as unknown as SettingsService, ssoUsers as unknown as SsoUsersService), ssoUsers };
  }

  it('has a secret only while JWT is on and both the secret and the identity provider are set', async () => {
    await expect(setup().service.sharedSecret()).resolves.toBe('s'.repeat(32));
    await expect(setup({ 'jwt-enabled': false }).service.sharedSecret()).resolves.toBeUndefined();
    await expect(setup({ 'jwt-identity-provider-uri': null }).service.sharedSecret()).resolves.toBeUndefined();
    await expect(setup({ 'jwt-shared-secret': '' }).service.sharedSecret()).resolves.toBeUndefined();
  });

  it('reads the claims with the configured names, keeps the others (not the registered ones) as attributes', async () => {
    const m = setup();
    await m.service.signIn({
      mail: 'ann@example.com',
      given: ' Ann ',
      family: '',
      roles: 'analysts',
      team: 'north',
      sub: 'x',
      exp: 1,
      iat: 1,
    });
    expect(m.ssoUsers.signIn).toHaveBeenCalledWith(
      { email: 'ann@example.com', firstName: 'Ann', lastName: null, groups: ['analysts'], attributes: { team: 'north' } },
      { source: 'jwt', provisioning: true, groupSync: true, groupMappings: { analysts: [5] } },
    );
    await m.service.signIn({ mail: 'bob@example.com', roles: ['a', 3, 'b'] });
    expect(m.ssoUsers.signIn.mock.calls[1][0].groups).toEqual(['a', 'b']);
  });

  it('refuses a token without an email address in the configured claim with a 401', async () => {
    const m = setup();
    for (const claims of [{ email: 'ann@example.com' }, { mail: 'not an email' }, { mail: 42 }]) {
      const e = await m.service.signIn(claims).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(MessageError);
      expect((e as MessageError).status).toBe(401);
      expect((e as MessageError).message).toBe('Invalid JWT: the `mail` claim must be an email address');
    }
    expect(m.ssoUsers.signIn).not.toHaveBeenCalled();
  });

  it('sends the user to the identity provider with return_to added to its own query', async () => {
    await expect(setup().service.identityProviderUrl('/dashboard/3?x=1')).resolves.toBe(
      'https://idp.example/login?app=bi&return_to=%2Fdashboard%2F3%3Fx%3D1',
    );
  });
});
