import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AcceptsForm } from '../../common/http/accepts-form';
import { SessionsService } from '../sessions';
import type { SsoClaims } from './jwt/jwt-sso-token';
import type { SamlLogin } from './saml/saml-sso.service';
import { popupPage } from './saml/sdk-popup';
import { SsoLoginService } from './sso-login.service';
import type { SsoContext, SsoRequest } from './sso-request';

/**
 * `GET|POST /auth/sso`, for every SSO method. The `sso` level's guard (SsoMethodGuard) has picked the method, checked
 * `return_to` and, when the request carried a login (a JWT, a posted SAMLResponse), had the method's strategy verify
 * it: this only hands it to SsoLoginService and answers (JSON for embedding clients and JSON posts, the SDK's popup
 * page, or a redirect for browsers).
 */
@Controller('auth/sso')
export class SsoController {
  constructor(
    private readonly login: SsoLoginService,
    private readonly sessions: SessionsService,
  ) {}

  @Get()
  @Access('sso')
  async start(@Req() req: SsoRequest, @Res() res: Response) {
    await this.handle(req, res, false);
  }

  /** JSON `{jwt}` (the SDK's exchange), or SAML's form post of `SAMLResponse` (the assertion consumer). */
  @Post()
  @Access('sso')
  @AcceptsForm()
  @HttpCode(200)
  async exchange(@Req() req: SsoRequest, @Res() res: Response) {
    await this.handle(req, res, true);
  }

  private async handle(req: SsoRequest, res: Response, posted: boolean): Promise<void> {
    const sso = req.sso as SsoContext;
    if (sso.method === 'saml' && req.ssoSamlLogin) return this.samlLogin(req, res, sso, req.ssoSamlLogin);
    if (sso.method === 'jwt' && req.ssoJwtClaims) return this.jwtLogin(req, res, sso, req.ssoJwtClaims, sso.embeddingClient || posted);
    return this.toIdentityProvider(req, res, sso);
  }

  private async jwtLogin(req: SsoRequest, res: Response, sso: SsoContext, claims: SsoClaims, json: boolean): Promise<void> {
    const key = await this.login.jwtSession(claims);
    await this.sessions.setCookie(req, res, key);
    if (json) {
      res.status(200).json({ status: 'ok', id: key, exp: claims.exp ?? null, iat: claims.iat ?? null });
      return;
    }
    res.redirect(302, sso.returnTo);
  }

  /** The assertion consumer: a session for the login the SAML strategy validated. */
  private async samlLogin(req: SsoRequest, res: Response, sso: SsoContext, login: SamlLogin): Promise<void> {
    const session = await this.login.samlSession(login, sso);
    await this.sessions.setCookie(req, res, session.key);
    if (session.sdkPage) {
      res
        .status(200)
        .set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
        .type('html')
        .send(popupPage(session.sdkPage, session.key));
      return;
    }
    res.redirect(302, session.returnTo);
  }

  /** Off to the identity provider: its URL as JSON for embedding clients, a redirect for browsers. */
  private async toIdentityProvider(req: SsoRequest, res: Response, sso: SsoContext): Promise<void> {
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
    const url = await this.login.identityProviderUrl(sso, origin);
    if (sso.embeddingClient) {
      res.status(200).json({ url, method: sso.method });
      return;
    }
    res.redirect(302, url);
  }
}
