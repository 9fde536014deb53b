import { Hs256Error, verifyHs256 } from '../../common/crypto/hs256';
import { MessageError } from '../../common/errors/api-errors';
import { isEmbeddingParams, type EmbeddingParams } from './embed-params';

/** Seconds of clock skew between the host that signs and us (Metabase's leeway). */
export const CLOCK_LEEWAY_SECONDS = 60;

export const NO_SECRET_KEY = 'The embedding secret key has not been set.';
export const CORRUPT = 'Message seems corrupt or manipulated';
export const MISSING_ALG = 'JWT is missing `alg`.';
export const ALG_NONE = 'JWT `alg` cannot be `none`.';
export const missingKeypath = (path: string[]) => `Token is missing value for keypath [${path.map((p) => `:${p}`).join(' ')}]`;

/** What the routes serve: a question (card) or a dashboard. */
export type EmbedResource = 'question' | 'dashboard';

/** The verified claims of an embed token, for one resource. */
export interface EmbedClaims {
  resource: EmbedResource;
  /** The card or dashboard id of `resource.question` / `resource.dashboard`. */
  id: number;
  /** `params`: slug -> value, as signed. */
  params: Record<string, unknown>;
  /** Preview tokens only: the whitelist that replaces the object's stored `embedding_params`. */
  embeddingParams?: EmbeddingParams;
}

/**
 * Verifies an embed token as Metabase does: HS256 only, keyed with the `embedding-secret-key` string
 * itself (its characters as bytes, as hosts sign with `jwt.sign(payload, key)`), `exp` checked with a 60 s leeway,
 * `params` required, and the id of the route's resource a positive integer. Every refusal is a 400 with the message
 * Metabase gives. `preview` also requires and checks `_embedding_params`.
 */
export function verifyEmbedToken(
  token: string,
  secret: string | null | undefined,
  resource: EmbedResource,
  opts: { preview?: boolean; now?: number } = {},
): EmbedClaims {
  if (!secret) throw new MessageError(NO_SECRET_KEY);
  checkAlg(token);
  let payload: unknown;
  try {
    payload = verifyHs256(token, secret, { clockToleranceSeconds: CLOCK_LEEWAY_SECONDS, now: opts.now });
  } catch (e) {
    throw new MessageError(refusal(e));
  }
  if (!isMap(payload)) throw new MessageError(missingKeypath(['resource', resource]));
  const resourceClaim = payload.resource;
  const id = isMap(resourceClaim) ? resourceClaim[resource] : undefined;
  if (id === undefined || id === null) throw new MessageError(missingKeypath(['resource', resource]));
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0)
    throw new MessageError(`${resource === 'question' ? 'Card' : 'Dashboard'} id should be a positive integer.`);
  const params = payload.params;
  if (params === undefined || params === null) throw new MessageError(missingKeypath(['params']));
  if (!isMap(params)) throw new MessageError('Token `params` must be a map.');
  const claims: EmbedClaims = { resource, id, params };
  if (opts.preview) {
    const whitelist = payload._embedding_params;
    if (whitelist === undefined || whitelist === null) throw new MessageError(missingKeypath(['_embedding_params']));
    if (!isEmbeddingParams(whitelist)) throw new MessageError('value must be a valid embedding params map.');
    claims.embeddingParams = whitelist;
  }
  return claims;
}

/**
 * The `kid` member of the token's JOSE header as it stands (undefined when absent or when the header cannot be read:
 * verification then refuses the token as it always has).
 */
export function headerKid(token: string): unknown {
  try {
    const header: unknown = JSON.parse(Buffer.from(token.slice(0, Math.max(token.indexOf('.'), 0)), 'base64url').toString('utf8'));
    return isMap(header) ? header.kid : undefined;
  } catch {
    return undefined;
  }
}

/** `alg` must be named and must not be `none`: checked on the header before anything else is read. */
function checkAlg(token: string): void {
  const dot = token.indexOf('.');
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
  } catch {
    throw new MessageError(CORRUPT);
  }
  if (dot <= 0 || !isMap(header)) throw new MessageError(CORRUPT);
  if (header.alg === undefined || header.alg === null || header.alg === '') throw new MessageError(MISSING_ALG);
  if (typeof header.alg === 'string' && header.alg.toLowerCase() === 'none') throw new MessageError(ALG_NONE);
}

/** Metabase's message for each refusal. */
function refusal(e: unknown): string {
  if (!(e instanceof Hs256Error)) throw e;
  const r = e.refusal;
  if (r.reason === 'expired') return `Token is expired (${r.at})`;
  if (r.reason === 'not-yet-valid') return `Token is not yet valid (${r.at})`;
  return CORRUPT;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
