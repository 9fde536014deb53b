import { NOT_AT_HAND, type SettingsReader } from '../settings/settings-reader';
import { isLocalhostOrigin, originMatches, parseOrigin, parseOriginPatterns } from './origins';

/** The settings that say which other sites may call this server, read at request time. */
export interface EmbeddingOrigins {
  /** `enable-embedding-sdk` */
  sdk: boolean;
  /** `embedding-app-origins-sdk` */
  sdkOrigins: string | null;
  /** `enable-embedding-interactive` */
  interactive: boolean;
  /** `embedding-app-origins-interactive` */
  interactiveOrigins: string | null;
  /** `site-url` */
  siteUrl: string | null;
}

export const EMBEDDING_ORIGIN_KEYS: Readonly<Record<keyof EmbeddingOrigins, string>> = {
  sdk: 'enable-embedding-sdk',
  sdkOrigins: 'embedding-app-origins-sdk',
  interactive: 'enable-embedding-interactive',
  interactiveOrigins: 'embedding-app-origins-interactive',
  siteUrl: 'site-url',
};

/** The settings at once when they are at hand (nearly always): a promise per request costs more than the rest. */
export function embeddingOriginsAtHand(settings: SettingsReader): EmbeddingOrigins | undefined {
  if (!settings.peek) return undefined;
  const values: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(EMBEDDING_ORIGIN_KEYS)) {
    const value = settings.peek(key);
    if (value === NOT_AT_HAND) return undefined;
    values[name] = value;
  }
  return values as unknown as EmbeddingOrigins;
}

export async function loadEmbeddingOrigins(settings: SettingsReader): Promise<EmbeddingOrigins> {
  const entries = await Promise.all(
    Object.entries(EMBEDDING_ORIGIN_KEYS).map(async ([name, key]) => [name, await settings.get(key)] as const),
  );
  return Object.fromEntries(entries) as unknown as EmbeddingOrigins;
}

/**
 * How far the embedding SDK's CORS trusts an origin:
 * - `credentials`: an origin named in `embedding-app-origins-sdk` (exactly or by a `*.domain` pattern), or localhost
 *   while developing: it may call with the visitor's cookie too.
 * - `headers`: an origin let in only by `*`: it may call with header credentials (the SDK's `X-Metabase-Session`),
 *   never with cookies, or any site could act as whoever visits it.
 * Undefined: no CORS at all. Nothing is trusted while the SDK is off.
 */
export type OriginTrust = 'credentials' | 'headers' | undefined;

export function sdkOriginTrust(s: EmbeddingOrigins, origin: string): OriginTrust {
  if (!s.sdk || !parseOrigin(origin)) return undefined;
  if (isLocalhostOrigin(origin) && localhostAllowed(s.siteUrl)) return 'credentials';
  const patterns = parseOriginPatterns(s.sdkOrigins);
  if (
    originMatches(
      origin,
      patterns.filter((p) => !p.any),
    )
  )
    return 'credentials';
  return patterns.some((p) => p.any) ? 'headers' : undefined;
}

/**
 * An embedding origin that may act with the visitor's session cookie (a cross-site write, a SAML popup's session):
 * a credentialed SDK origin, or an origin named in `embedding-app-origins-interactive` while interactive embedding
 * is on. `*` never counts.
 */
export function trustedWithCookies(s: EmbeddingOrigins, origin: string): boolean {
  if (sdkOriginTrust(s, origin) === 'credentials') return true;
  if (!s.interactive) return false;
  return originMatches(
    origin,
    parseOriginPatterns(s.interactiveOrigins).filter((p) => !p.any),
  );
}

/**
 * Localhost origins are a developer's page: trusted while the SDK is on, but only in development. Not in production
 * (`NODE_ENV=production`, as the Docker image sets) and not when the site is served over https (`site-url`), where
 * any program on a visitor's machine could otherwise pose as an embedding page.
 */
export function localhostAllowed(siteUrl: string | null | undefined, nodeEnv = process.env.NODE_ENV): boolean {
  return nodeEnv !== 'production' && !/^https:/i.test(siteUrl ?? '');
}

/** The origin of the `site-url` setting, if it is a valid URL. */
export function siteOrigin(siteUrl: string | null | undefined): string | undefined {
  if (!siteUrl) return undefined;
  try {
    return new URL(siteUrl).origin;
  } catch {
    return undefined;
  }
}

/** `origin` in the form browsers send it (lowercase, no default port), or undefined for `null` and other non-origins. */
export function normalOrigin(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
