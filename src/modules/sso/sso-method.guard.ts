import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { loadEmbeddingOrigins } from '../../common/http/origin-policy';
import { SettingsService } from '../settings';
import { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import { JwtSsoService } from './jwt/jwt-sso.service';
import { ssoToken } from './jwt/sso-token.strategy-base';
import { checkReturnTo, redirectTargets } from './return-to';
import { SamlSsoAuthGuard } from './saml/saml-sso.guard';
import { SamlSsoService } from './saml/saml-sso.service';
import { isEmbeddingClient, type SsoMethod, type SsoRequest } from './sso-request';

export const SSO_NOT_CONFIGURED = 'SSO has not been enabled and/or configured';
export const SDK_DISABLED = 'The embedding SDK is not enabled. An admin can turn it on under Admin > Embedding (`enable-embedding-sdk`).';

/**
 * SSO_GUARD, what `@Access('sso')` requires: picks the method (`preferred_method` when that one is on; a JWT when one
 * came along; a posted SAMLResponse; else SAML when on, else JWT), refuses embedding clients while the SDK is off, checks
 * `return_to`, and when the request carries a login, has the method's strategy verify it: a JWT that came along
 * (JwtSsoAuthGuard, claims on `req.ssoJwtClaims`), a SAMLResponse posted as a form (SamlSsoAuthGuard, login on
 * `req.ssoSamlLogin`). Settings are read per request.
 */
@Injectable()
export class SsoMethodGuard implements CanActivate {
  constructor(
    private readonly settings: SettingsService,
    private readonly jwt: JwtSsoService,
    private readonly saml: SamlSsoService,
    private readonly jwtGuard: JwtSsoAuthGuard,
    private readonly samlGuard: SamlSsoAuthGuard,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<SsoRequest>();
    const embeddingClient = isEmbeddingClient(req);
    if (embeddingClient && !(await this.settings.get<boolean>('enable-embedding-sdk'))) throw new MessageError(SDK_DISABLED, 403);
    const jwtOn = (await this.jwt.sharedSecret()) !== undefined;
    const samlOn = await this.saml.usable();
    const method = this.pick(req, jwtOn, samlOn);
    const redirects = redirectTargets(await loadEmbeddingOrigins(this.settings));
    const returnTo = checkReturnTo(this.param(req, 'return_to'), redirects);
    req.sso = { method, embeddingClient, returnTo, redirects };
    if (method === 'jwt' && ssoToken(req)) return (await this.jwtGuard.canActivate(ctx)) === true;
    if (method === 'saml' && postedSamlResponse(req)) return (await this.samlGuard.canActivate(ctx)) === true;
    return true;
  }

  private pick(req: SsoRequest, jwtOn: boolean, samlOn: boolean): SsoMethod {
    const preferred = this.param(req, 'preferred_method');
    if (preferred === 'jwt' && jwtOn) return 'jwt';
    if (preferred === 'saml' && samlOn) return 'saml';
    if (ssoToken(req) && jwtOn) return 'jwt';
    if (this.param(req, 'SAMLResponse') !== undefined && samlOn) return 'saml';
    if (samlOn) return 'saml';
    if (jwtOn) return 'jwt';
    throw new MessageError(SSO_NOT_CONFIGURED);
  }

  private param(req: SsoRequest, name: string): string | undefined {
    const q = req.query?.[name];
    if (typeof q === 'string') return q;
    const body = req.body as Record<string, unknown> | undefined;
    const b = body && typeof body === 'object' ? body[name] : undefined;
    return typeof b === 'string' ? b : undefined;
  }
}

/** SAML's assertion consumer: a POST whose form carries a SAMLResponse (anything else starts a login). */
function postedSamlResponse(req: SsoRequest): boolean {
  const body = req.body as Record<string, unknown> | undefined;
  return req.method === 'POST' && typeof body?.SAMLResponse === 'string';
}
