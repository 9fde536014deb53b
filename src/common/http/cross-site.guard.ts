import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ACCESS_KEY, type AccessLevel } from '../auth/access.decorator';
import { SESSION_COOKIE } from '../auth/session-cookie';
import { MessageError } from '../errors/api-errors';
import { SETTINGS_READER, type SettingsReader } from '../settings/settings-reader';
import { embeddingOriginsAtHand, loadEmbeddingOrigins, normalOrigin, siteOrigin, trustedWithCookies } from './origin-policy';

export const SIGNS_IN = 'signs-in';

/**
 * Marks a route that signs a browser in with a cookie (`POST /api/session`): it is held to the cross-site rule even
 * without a cookie, so that another site cannot sign a visitor in as someone else (login CSRF).
 */
export const SignsIn = () => SetMetadata(SIGNS_IN, true);

export const CROSS_SITE_REFUSED =
  "This request comes from another site and carries only the session cookie: send it from this server's pages" +
  ' or an approved embedding origin, or with the X-Metabase-Session or X-Api-Key header.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Levels whose routes never act as the cookie's user: the link or token in the path authorizes (public, embed),
 * or the credential in the request does (SSO: a signed JWT, or the SAML response the identity provider posts from
 * its own site, which the assertion consumer must take cross-site).
 */
const NOT_BY_COOKIE: ReadonlySet<AccessLevel> = new Set(['public-sharing', 'embed', 'sso']);

/**
 * Global guard, after AuthGuard: a request that changes something (POST, PUT, PATCH, DELETE) and is authenticated by
 * the session cookie alone is refused (403) when it comes from another site: its `Origin` (or, without one,
 * `Sec-Fetch-Site: cross-site`) is neither this site (the `site-url` origin, or the request's own scheme and host,
 * forwarded ones from a trusted proxy) nor an embedding origin trusted with cookies (origin-policy.ts). A browser
 * sends the cookie along with a cross-site post that needs no preflight (no Content-Type, `mode: 'no-cors'`) when
 * the cookie is `SameSite=None`; the header credentials (`X-Metabase-Session`, `X-Api-Key`) cannot be set by such a
 * post, so header-authenticated requests pass, as do requests without a cookie and those without an Origin (not a
 * browser's cross-site request: browsers send Origin with every cross-origin post).
 */
@Injectable()
export class CrossSiteGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
  ) {}

  canActivate(ctx: ExecutionContext): boolean | Promise<boolean> {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    if (SAFE_METHODS.has(req.method)) return true;
    if (hasHeaderCredentials(req)) return true;
    const targets = [ctx.getHandler(), ctx.getClass()];
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_KEY, targets);
    if (level && NOT_BY_COOKIE.has(level)) return true;
    if (!hasSessionCookie(req) && !this.reflector.getAllAndOverride<boolean>(SIGNS_IN, targets)) return true;
    const origin = req.headers.origin;
    if (origin === undefined) {
      if (req.headers['sec-fetch-site'] === 'cross-site') throw new MessageError(CROSS_SITE_REFUSED, 403);
      return true;
    }
    const from = normalOrigin(origin);
    if (from !== undefined && from === ownOrigin(req)) return true;
    return this.fromTrustedSite(from).then((trusted) => {
      if (!trusted) throw new MessageError(CROSS_SITE_REFUSED, 403);
      return true;
    });
  }

  private async fromTrustedSite(origin: string | undefined): Promise<boolean> {
    if (origin === undefined) return false; // `null` (sandboxed frames, data: URLs) and garbage
    const s = embeddingOriginsAtHand(this.settings) ?? (await loadEmbeddingOrigins(this.settings));
    return origin === siteOrigin(s.siteUrl) || trustedWithCookies(s, origin);
  }
}

function hasHeaderCredentials(req: Request): boolean {
  return Boolean(req.headers['x-metabase-session'] || req.headers['x-api-key']);
}

function hasSessionCookie(req: Request): boolean {
  const cookies = (req as { cookies?: Record<string, string> }).cookies;
  return Boolean(cookies?.[SESSION_COOKIE]);
}

/** This request's own origin: Express's protocol and host, which honour X-Forwarded-Proto/-Host only from a trusted proxy. */
function ownOrigin(req: Request): string | undefined {
  return req.host ? normalOrigin(`${req.protocol}://${req.host}`) : undefined;
}
