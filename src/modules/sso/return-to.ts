import { MessageError } from '../../common/errors/api-errors';
import { trustedWithCookies, type EmbeddingOrigins } from '../../common/http/origin-policy';

export const INVALID_REDIRECT = 'Invalid redirect URL';

/** Where an absolute redirect may point: the host of `site-url`, and the embedding origins trusted with cookies. */
export interface RedirectTargets {
  /** The `site-url` host; empty without one: the request's own Host header is the caller's to choose, so it never counts. */
  siteHosts: string[];
  embedding?: EmbeddingOrigins;
}

/** The hosts and origins a login may send the browser to, from the settings in force. */
export function redirectTargets(embedding: EmbeddingOrigins): RedirectTargets {
  let siteHosts: string[] = [];
  try {
    if (embedding.siteUrl) siteHosts = [new URL(embedding.siteUrl).host];
  } catch {
    /* an unparsable site URL names no host */
  }
  return { siteHosts, embedding };
}

/**
 * Where a login may send the browser: a path on this site (`/x`, not `//host` nor `/\host`, which browsers read as
 * another host), or an absolute http(s) URL on the host of `site-url` or an embedding origin trusted with cookies
 * (origin-policy.ts). Without `site-url` only paths and those embedding origins. Anything else is 400
 * `Invalid redirect URL`. Absent: `/`.
 */
export function checkReturnTo(raw: unknown, targets: RedirectTargets): string {
  if (raw === undefined || raw === null || raw === '') return '/';
  if (typeof raw !== 'string' || raw.length > 2048 || /[\u0000-\u001f\\]/.test(raw)) throw new MessageError(INVALID_REDIRECT);
  if (raw.startsWith('/')) {
    if (raw.startsWith('//')) throw new MessageError(INVALID_REDIRECT);
    return raw;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MessageError(INVALID_REDIRECT);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw new MessageError(INVALID_REDIRECT);
  const onSite = targets.siteHosts.some((h) => h.toLowerCase() === url.host.toLowerCase());
  if (!onSite && !(targets.embedding && trustedWithCookies(targets.embedding, url.origin))) throw new MessageError(INVALID_REDIRECT);
  return url.toString();
}
