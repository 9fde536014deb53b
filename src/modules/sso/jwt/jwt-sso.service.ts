import { Injectable } from '@nestjs/common';
import { MessageError } from '../../../common/errors/api-errors';
import { SettingsService } from '../../settings';
import { User } from '../../../schema/user.entity';
import { SsoUsersService } from '../sso-users.service';
import type { SsoClaims } from './jwt-sso-token';

/** Claims of the JWT standard, never kept as user attributes. */
const REGISTERED = ['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti'];

/** JWT SSO after the token is verified: the claims, read with the attribute names of the settings, sign a user in. */
@Injectable()
export class JwtSsoService {
  constructor(
    private readonly settings: SettingsService,
    private readonly ssoUsers: SsoUsersService,
  ) {}

  /** The shared secret while JWT is usable: enabled, with both the secret and the identity provider's URI set. */
  async sharedSecret(): Promise<string | undefined> {
    if (!(await this.settings.get<boolean>('jwt-enabled'))) return undefined;
    const secret = await this.settings.get<string | null>('jwt-shared-secret');
    const uri = await this.settings.get<string | null>('jwt-identity-provider-uri');
    return secret && uri ? secret : undefined;
  }

  async signIn(claims: SsoClaims): Promise<User> {
    const attr = async (key: string) => (await this.settings.get<string>(key)) || '';
    const [emailKey, firstKey, lastKey, groupsKey, tenantKey] = await Promise.all(
      ['jwt-attribute-email', 'jwt-attribute-firstname', 'jwt-attribute-lastname', 'jwt-attribute-groups', 'jwt-attribute-tenant'].map(
        attr,
      ),
    );
    const email = claims[emailKey];
    if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) {
      throw new MessageError(`Invalid JWT: the \`${emailKey}\` claim must be an email address`, 401);
    }
    const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, 254) : null);
    const rawGroups = claims[groupsKey];
    const groups = (Array.isArray(rawGroups) ? rawGroups : typeof rawGroups === 'string' ? [rawGroups] : []).filter(
      (g): g is string => typeof g === 'string',
    );
    // The tenant claim places the user; it is not one of their attributes (their tenant's slug is, as `@tenant.slug`).
    const skip = new Set([...REGISTERED, emailKey, firstKey, lastKey, groupsKey, tenantKey]);
    const attributes = Object.fromEntries(Object.entries(claims).filter(([k]) => !skip.has(k)));
    const tenant = tenantKey ? { claim: tenantKey, value: claims[tenantKey] } : undefined;
    return this.ssoUsers.signIn(
      { email, firstName: text(claims[firstKey]), lastName: text(claims[lastKey]), groups, attributes, tenant },
      {
        source: 'jwt',
        provisioning: await this.settings.get<boolean>('jwt-user-provisioning-enabled?'),
        groupSync: await this.settings.get<boolean>('jwt-group-sync'),
        groupMappings: (await this.settings.get<Record<string, number[]> | null>('jwt-group-mappings')) ?? {},
      },
    );
  }

  /** The identity provider's URI, with `return_to` added to its query. */
  async identityProviderUrl(returnTo: string): Promise<string> {
    const uri = (await this.settings.get<string>('jwt-identity-provider-uri')) ?? '';
    const url = new URL(uri);
    url.searchParams.set('return_to', returnTo);
    return url.toString();
  }

  async identityProviderUri(): Promise<string> {
    return (await this.settings.get<string>('jwt-identity-provider-uri')) ?? '';
  }
}
