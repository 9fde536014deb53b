import type { Request } from 'express';
import type { SsoClaims } from './jwt/jwt-sso-token';
import type { RedirectTargets } from './return-to';
import type { SamlLogin } from './saml/saml-sso.service';

export type SsoMethod = 'jwt' | 'saml';

/** What the SSO guard established for the controller. */
export interface SsoContext {
  method: SsoMethod;
  /** The caller is an embedding client (header `X-Metabase-Client`): JSON answers instead of redirects. */
  embeddingClient: boolean;
  /** Where to go after login, already checked to be relative or on our own host. */
  returnTo: string;
  /** What an absolute return URL may name: the site URL's host, the trusted embedding origins. */
  redirects: RedirectTargets;
}

/**
 * The request behind `@Access('sso')`: the guard's context, and what the method's strategy verified when the request
 * carried a login (a JWT's claims, or the login a posted SAMLResponse proves). Neither: the login has yet to start.
 */
export type SsoRequest = Request & { sso?: SsoContext; ssoJwtClaims?: SsoClaims; ssoSamlLogin?: SamlLogin };

export const EMBEDDING_CLIENT_HEADER = 'x-metabase-client';

export function isEmbeddingClient(req: Request): boolean {
  const v = req.headers[EMBEDDING_CLIENT_HEADER];
  return typeof v === 'string' && v.length > 0;
}
