import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings/settings.service';
import { JwtSsoAuthGuard } from './jwt/jwt-sso.guard';
import { ssoToken } from './jwt/sso-token.strategy-base';
import { checkReturnTo } from './return-to';
import { SamlSsoService } from './saml/saml-sso.service';
import { isEmbeddingClient, type SsoMethod, type SsoRequest } from './sso-request';

export const SSO_NOT_CONFIGURED = 'SSO has not been enabled and/or configured';
export const SDK_DISABLED = 'The embedding SDK is not enabled. An admin can turn it on under Admin > Embedding (`enable-embedding-sdk`).';

/**
 * SSO_GUARD, what `@Access('sso')` requires: picks the method (`preferred_method` when that one is on; a JWT when one
 * came along; a posted SAMLResponse; else SAML when on, else JWT), refuses embedding clients while the SDK is off, checks
 * `return_to`, and for a JWT that came along runs the `sso-jwt` passport strategy. Settings are read per request.
 */
@Injectable()
export class SsoMethodGuard implements CanActivate {
  constructor(
    private readonly settings: SettingsService,
    private readonly jwtGuard: JwtSsoAuthGuard,
    private readonly saml: SamlSsoService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<SsoRequest>();
    const embeddingClient = isEmbeddingClient(req);
    if (embeddingClient && !(await this.settings.get<boolean>('enable-embedding-sdk'))) throw new MessageError(SDK_DISABLED, 403);
    const jwtSecret = await this.jwtSecret();
    const samlOn = await this.saml.usable();
    const method = this.pick(req, jwtSecret !== undefined, samlOn);
    const ownHosts = await this.ownHosts(req);
    const returnTo = checkReturnTo(this.param(req, 'return_to'), ownHosts);
    req.sso = { method, embeddingClient, returnTo, ownHosts, jwtSecret };
    if (method === 'jwt' && ssoToken(req)) return (await this.jwtGuard.canActivate(ctx)) === true;
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

  /** The secret while JWT is usable: enabled, with both the secret and the identity provider's URI set. */
  private async jwtSecret(): Promise<string | undefined> {
    if (!(await this.settings.get<boolean>('jwt-enabled'))) return undefined;
    const secret = await this.settings.get<string | null>('jwt-shared-secret');
    const uri = await this.settings.get<string | null>('jwt-identity-provider-uri');
    return secret && uri ? secret : undefined;
  }

  private async ownHosts(req: SsoRequest): Promise<string[]> {
    const siteUrl = await this.settings.get<string | null>('site-url');
    if (siteUrl) {
      try {
        return [new URL(siteUrl).host];
      } catch {
        /* fall back to the request's host */
      }
    }
    return req.headers.host ? [req.headers.host] : [];
  }

  private param(req: SsoRequest, name: string): string | undefined {
    const q = req.query?.[name];
    if (typeof q === 'string') return q;
    const body = req.body as Record<string, unknown> | undefined;
    const b = body && typeof body === 'object' ? body[name] : undefined;
    return typeof b === 'string' ? b : undefined;
  }
}
