import { Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { loadEmbeddingOrigins, siteOrigin } from '../../common/http/origin-policy';
import { SessionsService } from '../sessions';
import { SettingsService } from '../settings';
import type { SsoClaims } from './jwt/jwt-sso-token';
import { JwtSsoService } from './jwt/jwt-sso.service';
import { checkReturnTo } from './return-to';
import { SamlLogin, SamlSsoService } from './saml/saml-sso.service';
import { allowedSdkOrigin, popupOrigin, popupReturnTo, SDK_ORIGIN_REFUSED } from './saml/sdk-popup';
import type { SsoContext } from './sso-request';
import { SsoUsersService } from './sso-users.service';

/** A SAML login done: the new session, and where it goes. */
export interface SamlSession {
  key: string;
  /** The SDK page that started a popup login, to hand the session to; null for a browser login. */
  sdkPage: string | null;
  /** Where a browser login redirects (`/` for a popup login). */
  returnTo: string;
}

/**
 * What `/auth/sso` does once the SSO guard has picked the method and its strategy has verified the login: sign the user
 * in under the method's settings (found or provisioned, names and attributes refreshed, groups synced), open a session,
 * and say where the browser goes; or, before any login, where the identity provider is.
 */
@Injectable()
export class SsoLoginService {
  constructor(
    private readonly jwt: JwtSsoService,
    private readonly saml: SamlSsoService,
    private readonly ssoUsers: SsoUsersService,
    private readonly sessions: SessionsService,
    private readonly settings: SettingsService,
  ) {}

  /** A verified JWT: the user its claims name signed in (the `jwt-*` settings), and a new session key. */
  async jwtSession(claims: SsoClaims): Promise<string> {
    const user = await this.jwt.signIn(claims);
    return this.sessions.create(user.id);
  }

  /**
   * A validated SAML login: where it goes (the SDK page of a popup login, checked again as the session is handed over
   * since the origins may have changed; else the return path of the request it answers, checked like `return_to`),
   * then the user signed in under the `saml-*` settings, and a new session.
   */
  async samlSession(login: SamlLogin, sso: SsoContext): Promise<SamlSession> {
    const sdkPage = popupOrigin(login.returnTo);
    if (sdkPage && (await this.popupTarget(sdkPage)) !== sdkPage) throw new MessageError(SDK_ORIGIN_REFUSED, 403);
    const returnTo = sdkPage ? '/' : checkReturnTo(login.returnTo, sso.redirects);
    const user = await this.ssoUsers.signIn(await this.withSamlTenant(login), {
      source: 'saml',
      provisioning: await this.settings.get<boolean>('saml-user-provisioning-enabled?'),
      groupSync: await this.settings.get<boolean>('saml-group-sync'),
      groupMappings: (await this.settings.get<Record<string, number[]> | null>('saml-group-mappings')) ?? {},
    });
    return { key: await this.sessions.create(user.id), sdkPage, returnTo };
  }

  /**
   * The tenant attribute (`saml-attribute-tenant`) read as JWT's tenant claim is: one value names the tenant (SAML
   * sends lists, so a list of one counts as its value), and it is not kept among the user's attributes.
   */
  private async withSamlTenant(login: SamlLogin): Promise<SamlLogin & { tenant?: { claim: string; value: unknown } }> {
    const claim = ((await this.settings.get<string | null>('saml-attribute-tenant')) ?? '').trim();
    if (!claim || !(claim in login.attributes)) return login;
    const { [claim]: raw, ...attributes } = login.attributes;
    const value = Array.isArray(raw) && raw.length === 1 ? raw[0] : raw;
    return { ...login, attributes, tenant: { claim, value } };
  }

  /**
   * Where a login starts. SAML: an AuthnRequest to the identity provider, carrying `return_to`, or for an embedding
   * client the SDK page (`origin`, else our own) when it may embed (else 403). JWT: the identity provider's URI, with
   * `return_to` for a browser.
   */
  async identityProviderUrl(sso: SsoContext, origin: string | undefined): Promise<string> {
    if (sso.method === 'saml') {
      if (!sso.embeddingClient) return this.saml.redirect(sso.returnTo);
      const page = await this.popupTarget(origin);
      if (!page) throw new MessageError(SDK_ORIGIN_REFUSED, 403);
      return this.saml.redirect(popupReturnTo(page));
    }
    return sso.embeddingClient ? this.jwt.identityProviderUri() : this.jwt.identityProviderUrl(sso.returnTo);
  }

  /**
   * `origin` (our own when undefined) when the SAML popup may hand a session to it (sdk-popup.ts); else null. Our own
   * is the site URL's (SAML needs one): never the request's Host header, which the caller chooses.
   */
  private async popupTarget(origin: string | undefined): Promise<string | null> {
    const settings = await loadEmbeddingOrigins(this.settings);
    const own = siteOrigin(settings.siteUrl);
    return allowedSdkOrigin(origin ?? own, settings, own);
  }
}
