import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { MessageError } from '../../common/errors/api-errors';
import { SessionsService } from '../sessions/sessions.service';
import type { SsoClaims } from './jwt/jwt-sso-token';
import { JwtSsoService } from './jwt/jwt-sso.service';
import type { SsoContext, SsoRequest } from './sso-request';

/** Until the SAML service lands: SAML chosen answers this. */
export const SAML_UNAVAILABLE = 'SAML login is not available on this server yet.';

/**
 * `GET|POST /auth/sso`, for every SSO method. The `sso` level's guard (SsoMethodGuard) has picked the method, checked
 * `return_to` and, for a JWT that came along, verified it: this only signs in and answers (JSON for embedding
 * clients and JSON posts, a redirect for browsers).
 */
@Controller('auth/sso')
export class SsoController {
  constructor(
    private readonly jwt: JwtSsoService,
    private readonly sessions: SessionsService,
  ) {}

  @Get()
  @Access('sso')
  async start(@Req() req: SsoRequest, @Res() res: Response) {
    await this.handle(req, res, false);
  }

  @Post()
  @Access('sso')
  @HttpCode(200)
  async exchange(@Req() req: SsoRequest, @Res() res: Response) {
    await this.handle(req, res, true);
  }

  private async handle(req: SsoRequest, res: Response, posted: boolean): Promise<void> {
    const sso = req.sso as SsoContext;
    if (sso.method === 'saml') {
      // SAML BRANCH: to be wired to SamlSsoService (src/modules/sso/saml/) once it lands.
      throw new MessageError(SAML_UNAVAILABLE);
    }
    const claims = req.ssoJwtClaims;
    if (!claims) return this.toIdentityProvider(sso, res);
    return this.jwtLogin(req, res, claims, sso.embeddingClient || posted);
  }

  private async jwtLogin(req: Request, res: Response, claims: SsoClaims, json: boolean): Promise<void> {
    const user = await this.jwt.signIn(claims);
    const key = await this.sessions.create(user.id);
    await this.sessions.setCookie(req, res, key);
    const sso = (req as SsoRequest).sso as SsoContext;
    if (json) {
      res.status(200).json({ status: 'ok', id: key, exp: claims.exp ?? null, iat: claims.iat ?? null });
      return;
    }
    res.redirect(302, sso.returnTo);
  }

  private async toIdentityProvider(sso: SsoContext, res: Response): Promise<void> {
    if (sso.embeddingClient) {
      res.status(200).json({ url: await this.jwt.identityProviderUri(), method: 'jwt' });
      return;
    }
    res.redirect(302, await this.jwt.identityProviderUrl(sso.returnTo));
  }
}
