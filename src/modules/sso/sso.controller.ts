import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AcceptsForm } from '../../common/http/accepts-form';
import { SessionsService } from '../sessions/sessions.service';
import type { SsoClaims } from './jwt/jwt-sso-token';
import { JwtSsoService } from './jwt/jwt-sso.service';
import { checkReturnTo } from './return-to';
import { SamlSsoService } from './saml/saml-sso.service';
import { allowedSdkOrigin, popupOrigin, popupPage, popupReturnTo, SDK_ORIGIN_REFUSED } from './saml/sdk-popup';
import { MessageError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings/settings.service';
import type { SsoContext, SsoRequest } from './sso-request';
import { SsoUsersService } from './sso-users.service';

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
    private readonly samlService: SamlSsoService,
    private readonly ssoUsers: SsoUsersService,
    private readonly settings: SettingsService,
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
    if (sso.method === 'saml') return this.saml(req, res, sso, posted);
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

  /** GET: off to the identity provider (its URL as JSON for embedding clients); POST: the assertion consumer. */
  private async saml(req: SsoRequest, res: Response, sso: SsoContext, posted: boolean): Promise<void> {
    const form = req.body as Record<string, unknown> | undefined;
    if (!posted || typeof form?.SAMLResponse !== 'string') {
      if (sso.embeddingClient) {
        res.status(200).json({ url: await this.samlService.redirect(popupReturnTo(await this.sdkOrigin(req))), method: 'saml' });
        return;
      }
      res.redirect(302, await this.samlService.redirect(sso.returnTo));
      return;
    }
    const login = await this.samlService.consume(form as Record<string, string>);
    const sdkPage = popupOrigin(login.returnTo);
    const returnTo = sdkPage ? '/' : checkReturnTo(login.returnTo, sso.ownHosts);
    const user = await this.ssoUsers.signIn(login, {
      source: 'saml',
      provisioning: await this.settings.get<boolean>('saml-user-provisioning-enabled?'),
      groupSync: await this.settings.get<boolean>('saml-group-sync'),
      groupMappings: (await this.settings.get<Record<string, number[]> | null>('saml-group-mappings')) ?? {},
    });
    const key = await this.sessions.create(user.id);
    await this.sessions.setCookie(req, res, key);
    if (sdkPage) {
      res.status(200).set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).type('html').send(popupPage(sdkPage, key));
      return;
    }
    res.redirect(302, returnTo);
  }

  /** The page of an SDK starting a SAML login (its Origin, else our own), when it may embed; else 403. */
  private async sdkOrigin(req: Request): Promise<string> {
    const siteUrl = await this.settings.get<string | null>('site-url');
    const own = siteUrl ? safeOrigin(siteUrl) : safeOrigin(`${req.protocol}://${req.headers.host ?? ''}`);
    const origin = typeof req.headers.origin === 'string' ? req.headers.origin : own;
    const allowed = allowedSdkOrigin(origin, await this.settings.get<string | null>('embedding-app-origins-sdk'), own);
    if (!allowed) throw new MessageError(SDK_ORIGIN_REFUSED, 403);
    return allowed;
  }

  private async toIdentityProvider(sso: SsoContext, res: Response): Promise<void> {
    if (sso.embeddingClient) {
      res.status(200).json({ url: await this.jwt.identityProviderUri(), method: 'jwt' });
      return;
    }
    res.redirect(302, await this.jwt.identityProviderUrl(sso.returnTo));
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
