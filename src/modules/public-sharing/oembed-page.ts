import { ValidationError } from '../../common/errors/api-errors';

/** Where this site's pages are: an origin and a base path (`''`, or `/analytics` when served below a path). */
export interface SiteBase {
  origin: string;
  path: string;
}

export interface PublicPage {
  url: string;
  model: 'card' | 'dashboard';
  uuid: string;
}

/** The page of a public link below the site's base path: `/public/question/<uuid>` or `/public/dashboard/<uuid>`. */
const PUBLIC_PAGE = /^\/public\/(question|dashboard)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * This site's base: `site-url` when set (its path kept, as public links are made below it), else the request's own
 * origin (Express's protocol and host, which honour X-Forwarded-* only from a trusted proxy). Undefined when neither
 * is a usable http(s) URL.
 */
export function siteBase(siteUrl: string | null | undefined, requestOrigin: string): SiteBase | undefined {
  const u = parseHttp(siteUrl || requestOrigin);
  return u ? { origin: u.origin, path: siteUrl ? u.pathname.replace(/\/+$/, '') : '' } : undefined;
}

/**
 * The public link page `raw` names, which must be on this site: an oEmbed answer frames the URL it is given, so a
 * URL of another host would have this server vouch for (and size an iframe of) any page at all.
 */
export function publicPage(raw: string, site: SiteBase | undefined): PublicPage {
  const refused = () => ValidationError.of('url', 'value must be the URL of a public link on this site.', raw);
  const parsed = parseHttp(raw);
  if (!parsed || !site || parsed.username || parsed.password || parsed.origin !== site.origin) throw refused();
  const path = parsed.pathname;
  if (site.path && !path.startsWith(`${site.path}/`)) throw refused();
  const m = PUBLIC_PAGE.exec(path.slice(site.path.length));
  if (!m) throw refused();
  return { url: parsed.href, model: m[1] === 'question' ? 'card' : 'dashboard', uuid: m[2].toLowerCase() };
}

function parseHttp(raw: string): URL | undefined {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u : undefined;
  } catch {
    return undefined;
  }
}
