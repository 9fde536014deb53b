import { Hs256Error, verifyHs256 } from '../../../common/crypto/hs256';
import { MessageError } from '../../../common/errors/api-errors';

/** Seconds of clock skew allowed between the identity provider and us. */
export const SSO_CLOCK_LEEWAY_SECONDS = 60;
/** A token's `iat` may be at most this old (Metabase's three minutes). */
export const SSO_MAX_AGE_SECONDS = 180;

export type SsoClaims = Record<string, unknown> & { exp?: number; iat?: number };

const refused = (why: string) => new MessageError(why, 401);

const REASONS = { expired: 'Token is expired', 'not-yet-valid': 'Token is not yet valid', corrupt: 'Message seems corrupt or manipulated' };

/**
 * Verifies an SSO token: HS256 only (an `alg: none` or RS256 token is refused before its claims are read), keyed with the
 * shared secret string, `exp` checked, `iat` at most 180 s old, both with 60 s of leeway. A token must carry `exp` or
 * `iat`: one without either would be valid forever. Every refusal is a 401 with the reason.
 */
export function verifySsoToken(token: string, secret: string, now = Math.floor(Date.now() / 1000)): SsoClaims {
  let claims: unknown;
  try {
    claims = verifyHs256(token, secret, { clockToleranceSeconds: SSO_CLOCK_LEEWAY_SECONDS, now });
  } catch (e) {
    if (e instanceof Hs256Error) throw refused(REASONS[e.refusal.reason]);
    throw e;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw refused(REASONS.corrupt);
  const c = claims as SsoClaims;
  if (typeof c.exp !== 'number' && typeof c.iat !== 'number') throw refused('Token has neither `exp` nor `iat`');
  if (typeof c.iat === 'number') {
    if (c.iat > now + SSO_CLOCK_LEEWAY_SECONDS) throw refused('Token is not yet valid');
    if (now - c.iat > SSO_MAX_AGE_SECONDS + SSO_CLOCK_LEEWAY_SECONDS) throw refused(`Token is older than ${SSO_MAX_AGE_SECONDS} seconds`);
  }
  return c;
}
