import type { NextFunction, Request, Response } from 'express';
import { NOT_AT_HAND, type SettingsReader } from '../settings/settings-reader';
import { isLocalhostOrigin, originMatches, parseOriginPatterns } from './origins';

/** What the embedding SDK and the clients of the API send, answered to preflights. */
export const CORS_ALLOWED_HEADERS = ['X-Metabase-Session', 'X-Api-Key', 'X-Metabase-Client', 'X-Metabase-Client-Version', 'X-Metabase-Locale', 'Content-Type'];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const API_KEY_LOCALHOST_ONLY = 'API keys work for embedding clients only from localhost (development only); use JWT SSO or SAML in production.';

const corsPath = (path: string) => path.startsWith('/api/') || path === '/auth/sso';
/** Static embeds and public links may be framed anywhere; their API too. */
const frameableAnywhere = (path: string) => /^\/(api\/)?(public|embed)(\/|$)/.test(path);

/**
 * The HTTP side of embedding, run before routing, reading its settings at request time:
 * - CORS on /api/* and /auth/sso, while `enable-embedding-sdk` is on: an origin of `embedding-app-origins-sdk` (or
 *   localhost: development) gets `Access-Control-Allow-Origin: <origin>` and credentials; preflights are answered
 *   here with the methods and headers clients send. Any other origin gets no CORS header at all.
 * - An embedding client (`X-Metabase-Client`) authenticating with an API key must come from localhost: API keys are
 *   for development only, never a production embed (which would hand the key to every visitor).
 * - `Content-Security-Policy: frame-ancestors`: interactive pages only inside `embedding-app-origins-interactive`
 *   (while interactive embedding is on; else nowhere); /public and /embed anywhere.
 */
export function embeddingHttp(settings: SettingsReader) {
  return (req: Request, res: Response, next: NextFunction) => {
    // Read at once when the settings are at hand (nearly always): a promise per request costs more than the rest.
    const now = atHand(settings);
    if (now) return handle(now, req, res) ? undefined : next();
    load(settings)
      .then((values) => (handle(values, req, res) ? undefined : next()))
      .catch(next);
  };
}

interface EmbeddingSettings {
  sdk: boolean;
  sdkOrigins: string | null;
  interactive: boolean;
  interactiveOrigins: string | null;
}

const KEYS = {
  sdk: 'enable-embedding-sdk',
  sdkOrigins: 'embedding-app-origins-sdk',
  interactive: 'enable-embedding-interactive',
  interactiveOrigins: 'embedding-app-origins-interactive',
} as const;

function atHand(settings: SettingsReader): EmbeddingSettings | undefined {
  if (!settings.peek) return undefined;
  const values: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(KEYS)) {
    const value = settings.peek(key);
    if (value === NOT_AT_HAND) return undefined;
    values[name] = value;
  }
  return values as unknown as EmbeddingSettings;
}

async function load(settings: SettingsReader): Promise<EmbeddingSettings> {
  const entries = await Promise.all(Object.entries(KEYS).map(async ([name, key]) => [name, await settings.get(key)] as const));
  return Object.fromEntries(entries) as unknown as EmbeddingSettings;
}

/** True when the answer is already sent (a preflight, a refusal). */
function handle(settings: EmbeddingSettings, req: Request, res: Response): boolean {
  res.setHeader('Content-Security-Policy', `frame-ancestors ${frameAncestors(settings, req.path)}`);
  if (!corsPath(req.path)) return false;
  const origin = typeof req.headers.origin === 'string' ? req.headers.origin : undefined;
  const embeddingClient = typeof req.headers['x-metabase-client'] === 'string';
  if (embeddingClient && req.headers['x-api-key'] && req.method !== 'OPTIONS' && !isLocalhostOrigin(origin)) {
    res.status(401).json({ message: API_KEY_LOCALHOST_ONLY });
    return true;
  }
  if (!origin) return false;
  res.vary('Origin');
  if (!approved(settings, origin)) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.setHeader('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS.join(', '));
    res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return true;
  }
  return false;
}

function approved(settings: EmbeddingSettings, origin: string): boolean {
  if (!settings.sdk) return false;
  if (isLocalhostOrigin(origin)) return true;
  return originMatches(origin, parseOriginPatterns(settings.sdkOrigins));
}

function frameAncestors(settings: EmbeddingSettings, path: string): string {
  if (frameableAnywhere(path)) return '*';
  if (!settings.interactive) return "'none'";
  const origins = (settings.interactiveOrigins ?? '').split(/\s+/).filter(Boolean);
  return origins.length > 0 ? origins.join(' ') : "'none'";
}
