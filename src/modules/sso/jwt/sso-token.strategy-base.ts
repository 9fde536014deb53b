import { Strategy } from 'passport-strategy';
import type { Request } from 'express';

type Verify = (token: string, done: (err: Error | null, user?: unknown) => void) => void;

/**
 * A passport strategy for a token that arrives as `?jwt=` or a JSON body `{jwt}`: it hands the token to the verify
 * callback and succeeds with what that answers. No token: a plain failure (the SSO guard runs the strategy only when a
 * token came along, so this is a safety net).
 */
export class SsoTokenStrategyBase extends Strategy {
  constructor(private readonly verify: Verify) {
    super();
  }

  override authenticate(req: Request): void {
    const token = ssoToken(req);
    if (!token) return this.fail(401);
    this.verify(token, (err, user) => {
      if (err) return this.error(err);
      if (!user) return this.fail(401);
      return this.success(user);
    });
  }
}

/**
 * The `jwt` of the query string, else of a JSON body. Never of a form: /auth/sso takes form posts for SAML's assertion
 * consumer only, and a form any site can post would sign the browser in as someone else.
 */
export function ssoToken(req: Request): string | undefined {
  const fromQuery = req.query?.jwt;
  if (typeof fromQuery === 'string' && fromQuery.length > 0) return fromQuery;
  if (!req.is('application/json')) return undefined;
  const body = req.body as Record<string, unknown> | undefined;
  const fromBody = body && typeof body === 'object' ? body.jwt : undefined;
  return typeof fromBody === 'string' && fromBody.length > 0 ? fromBody : undefined;
}
