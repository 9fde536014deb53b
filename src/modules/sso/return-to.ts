import { MessageError } from '../../common/errors/api-errors';

export const INVALID_REDIRECT = 'Invalid redirect URL';

/**
 * Where a login may send the browser: a path on this site (`/x`, not `//host` nor `/\host`, which browsers read as
 * another host), or an absolute http(s) URL on the site's own host (the site URL's, else the request's). Anything
 * else is 400 `Invalid redirect URL`. Absent: `/`.
 */
export function checkReturnTo(raw: unknown, ownHosts: string[]): string {
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
  if (!ownHosts.map((h) => h.toLowerCase()).includes(url.host.toLowerCase())) throw new MessageError(INVALID_REDIRECT);
  return url.toString();
}
