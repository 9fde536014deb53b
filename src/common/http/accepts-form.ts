import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { MessageError } from '../errors/api-errors';

export const ACCEPTS_FORM = 'accepts-form';

/**
 * Marks a route whose interface is an HTML form post: the download endpoints (`.../:export-format`, which the
 * browser posts as a form to get a file) and the SAML assertion consumer. Every other route refuses form bodies.
 */
export const AcceptsForm = () => SetMetadata(ACCEPTS_FORM, true);

/**
 * A route whose body is a form by nature but which changes something (a CSV upload): a form post is accepted only
 * when it cannot come from a page on another site acting with the visitor's cookie. Browsers send `Origin` with
 * every cross-site post, and a plain form cannot set our session or API-key header, so either of those will do.
 */
export const AcceptsFormFromOwnSite = () => SetMetadata(ACCEPTS_FORM, 'own-site');

export const CROSS_SITE_FORM_REFUSED =
  "This form post comes from another site: send it from this server's pages, or with the X-Metabase-Session or X-Api-Key header.";

/**
 * The content types a page on another site can post without a CORS preflight. With `session-cookie-samesite=none`
 * the browser sends the session cookie along, so such a post would act as the signed-in user. JSON bodies need a
 * preflight, which only the approved origins pass.
 */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

export const FORM_REFUSED = 'This endpoint does not accept form posts: send a JSON body (Content-Type: application/json).';

/**
 * Global guard, after AuthGuard: a request that changes something and comes as a form is refused unless its route
 * says @AcceptsForm(). It is refused whatever the credentials (an API-key caller has no need of forms either), and
 * whether or not the form is empty: an empty form post is still another site acting on a body-less endpoint.
 */
@Injectable()
export class FormBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(ctx: ExecutionContext): boolean {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return true;
    // The header itself, not req.is(), which ignores the type of an empty body.
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (!FORM_TYPES.includes(type)) return true;
    const accepts = this.reflector.getAllAndOverride<boolean | 'own-site' | undefined>(ACCEPTS_FORM, [ctx.getHandler(), ctx.getClass()]);
    if (!accepts) throw new MessageError(FORM_REFUSED, 400);
    if (accepts === 'own-site' && !ownSite(req)) throw new MessageError(CROSS_SITE_FORM_REFUSED, 403);
    return true;
  }
}

function ownSite(req: Request): boolean {
  if (req.headers['x-metabase-session'] || req.headers['x-api-key']) return true;
  const origin = req.headers.origin;
  if (!origin) return true; // not a browser's cross-site post: those always carry Origin
  try {
    // Express's req.host: the Host header, or X-Forwarded-Host from a trusted proxy.
    return new URL(origin).host === req.host;
  } catch {
    return false;
  }
}
