import type { Request } from 'express';
import type { SsoClaims } from './jwt/jwt-sso-token';

export type SsoMethod = 'jwt' | 'saml';

/** What the SSO guard established for the controller. */
export interface SsoContext {
  method: SsoMethod;
  /** The caller is an embedding client (header `X-Metabase-Client`): JSON answers instead of redirects. */
  embeddingClient: boolean;
  /** Where to go after login, already checked to be relative or on our own host. */
  returnTo: string;
  /** Hosts an absolute return URL may name: the site URL's, else the request's. */
  ownHosts: string[];
  /** JWT: the shared secret in force for this request (read once, at request time). */
  jwtSecret?: string;
  /** JWT: the verified claims, set by the `sso-jwt` strategy when a token came along. */
  jwtClaims?: SsoClaims;
}

export type SsoRequest = Request & { sso?: SsoContext; ssoJwtClaims?: SsoClaims };

export const EMBEDDING_CLIENT_HEADER = 'x-metabase-client';

export function isEmbeddingClient(req: Request): boolean {
  const v = req.headers[EMBEDDING_CLIENT_HEADER];
  return typeof v === 'string' && v.length > 0;
}
