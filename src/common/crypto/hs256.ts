import { createSecretKey, type KeyObject } from 'node:crypto';
import { JsonWebTokenError, JwtService, NotBeforeError, TokenExpiredError } from '@nestjs/jwt';

/**
 * Why a token was refused: expired or not yet valid (with the instant, epoch seconds, that the token named), or anything
 * else (bad signature, another algorithm, `alg: none`, not a JWT at all).
 */
export type Hs256Refusal = { reason: 'expired'; at: number } | { reason: 'not-yet-valid'; at: number } | { reason: 'corrupt' };

/** A token that failed verification; each caller words the refusal its own way (SSO and embedding differ). */
export class Hs256Error extends Error {
  constructor(readonly refusal: Hs256Refusal) {
    super(`HS256 token refused: ${refusal.reason}`);
  }
}

export interface Hs256Options {
  /** Seconds of clock skew allowed on `exp` and `nbf`. */
  clockToleranceSeconds: number;
  /** The current time in epoch seconds (tests); the clock otherwise. */
  now?: number;
}

const jwt = new JwtService();

/** Secrets in use at once: the embedding key and the JWT SSO secret, with room for a rotation of each. */
const KEY_CACHE_SIZE = 4;
const keys = new Map<string, KeyObject>();

/**
 * The HMAC key object of a secret string. jsonwebtoken turns a string secret into a key object on every call, which
 * costs two orders of magnitude more than the signature check itself (bench/results.md, "Embed burst"); one cache for
 * every caller, holding a few secrets so that SSO logins and embed reads do not evict each other's key.
 */
export function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    if (keys.size >= KEY_CACHE_SIZE) keys.delete(keys.keys().next().value as string);
    keys.set(secret, key);
  }
  return key;
}

/**
 * Verifies a JWT signed with HMAC-SHA256 under `secret` (its characters as the key bytes, as `jwt.sign(payload,
 * secret)` signs): HS256 only, so an `alg: none` or RS256 token is refused before its claims are read; `exp` and `nbf`
 * checked with `clockToleranceSeconds` of skew. Answers the payload as signed (its shape is the caller's to check);
 * every refusal is an Hs256Error.
 */
export function verifyHs256(token: string, secret: string, opts: Hs256Options): unknown {
  try {
    return jwt.verify<object>(token, {
      // A KeyObject is what jsonwebtoken makes of the string anyway; @nestjs/jwt hands it through untouched.
      secret: hmacKey(secret) as unknown as string,
      algorithms: ['HS256'],
      clockTolerance: opts.clockToleranceSeconds,
      ...(opts.now !== undefined ? { clockTimestamp: opts.now } : {}),
    });
  } catch (e) {
    if (e instanceof TokenExpiredError) throw new Hs256Error({ reason: 'expired', at: Math.floor(e.expiredAt.getTime() / 1000) });
    if (e instanceof NotBeforeError) throw new Hs256Error({ reason: 'not-yet-valid', at: Math.floor(e.date.getTime() / 1000) });
    if (e instanceof JsonWebTokenError) throw new Hs256Error({ reason: 'corrupt' });
    throw e;
  }
}
