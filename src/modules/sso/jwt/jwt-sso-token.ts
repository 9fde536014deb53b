import { createSecretKey, type KeyObject } from 'node:crypto';
import { JsonWebTokenError, JwtService, NotBeforeError, TokenExpiredError } from '@nestjs/jwt';
import { MessageError } from '../../../common/errors/api-errors';

/** Seconds of clock skew allowed between the identity provider and us. */
export const SSO_CLOCK_LEEWAY_SECONDS = 60;
/** A token's `iat` may be at most this old (Metabase's three minutes). */
export const SSO_MAX_AGE_SECONDS = 180;

export type SsoClaims = Record<string, unknown> & { exp?: number; iat?: number };

const jwt = new JwtService();

/** The HMAC key object of the last secret seen: building it per call costs far more than the check (see embed-token.ts). */
let keyOf: { secret: string; key: KeyObject } | null = null;
function hmacKey(secret: string): KeyObject {
  if (keyOf?.secret !== secret) keyOf = { secret, key: createSecretKey(Buffer.from(secret, 'utf8')) };
  return keyOf.key;
}

const refused = (why: string) => new MessageError(why, 401);

/**
 * Verifies an SSO token: HS256 only (an `alg: none` or RS256 token is refused before its claims are read), keyed with the
 * shared secret string, `exp` checked, `iat` at most 180 s old, both with 60 s of leeway. A token must carry `exp` or
 * `iat`: one without either would be valid forever. Every refusal is a 401 with the reason.
 */
export function verifySsoToken(token: string, secret: string, now = Math.floor(Date.now() / 1000)): SsoClaims {
  let claims: unknown;
  try {
    claims = jwt.verify<object>(token, {
      secret: hmacKey(secret) as unknown as string,
      algorithms: ['HS256'],
      clockTolerance: SSO_CLOCK_LEEWAY_SECONDS,
      clockTimestamp: now,
    });
  } catch (e) {
    if (e instanceof TokenExpiredError) throw refused('Token is expired');
    if (e instanceof NotBeforeError) throw refused('Token is not yet valid');
    if (e instanceof JsonWebTokenError) throw refused('Message seems corrupt or manipulated');
    throw e;
  }
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims)) throw refused('Message seems corrupt or manipulated');
  const c = claims as SsoClaims;
  if (typeof c.exp !== 'number' && typeof c.iat !== 'number') throw refused('Token has neither `exp` nor `iat`');
  if (typeof c.iat === 'number') {
    if (c.iat > now + SSO_CLOCK_LEEWAY_SECONDS) throw refused('Token is not yet valid');
    if (now - c.iat > SSO_MAX_AGE_SECONDS + SSO_CLOCK_LEEWAY_SECONDS) throw refused(`Token is older than ${SSO_MAX_AGE_SECONDS} seconds`);
  }
  return c;
}
