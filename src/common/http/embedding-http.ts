import type { NextFunction, Request, Response } from 'express';
import type { SettingsReader } from '../settings/settings-reader';
import { embeddingOriginsAtHand, loadEmbeddingOrigins, sdkOriginTrust, type EmbeddingOrigins } from './origin-policy';
import { isLocalhostOrigin } from './origins';

/** What the embedding SDK and the clients of the API send, answered to preflights. */
export const CORS_ALLOWED_HEADERS = [
  'X-Metabase-Session',
  'X-Api-Key',
  'X-Metabase-Client',
  'X-Metabase-Client-Version',
  'X-Metabase-Locale',
  'Content-Type',
];
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
export const API_KEY_LOCALHOST_ONLY =
  'API keys work for embedding clients only from localhost (development only); use JWT SSO or SAML in production.';

const corsPath = (path: string) => path.startsWith('/api/') || path === '/auth/sso';
/** Static embeds and public links may be framed anywhere; their API too. */
const frameableAnywhere = (path: string) => /^\/(api\/)?(public|embed)(\/|$)/.test(path);

/**
 * The HTTP side of embedding, run before routing, reading its settings at request time:
 * - CORS on /api/* and /auth/sso, while `enable-embedding-sdk` is on: an origin of `embedding-app-origins-sdk` (or
 *   localhost, in development only) gets `Access-Control-Allow-Origin: <origin>` and credentials; an origin let in
 *   only by `*` gets `Access-Control-Allow-Origin` without credentials (header sessions work, cookies are never
 *   sent); preflights are answered here with the methods and headers clients send. Any other origin gets no CORS
 *   header at all (see origin-policy.ts).
 * - An embedding client (`X-Metabase-Client`) authenticating with an API key must come from localhost: API keys are
 *   for development only, never a production embed (which would hand the key to every visitor).
 * - `Content-Security-Policy: frame-ancestors`: interactive pages only inside `embedding-app-origins-interactive`
 *   (while interactive embedding is on; else nowhere); /public and /embed anywhere.
 */
export function embeddingHttp(settings: SettingsReader) {
  return (req: Request, res: Response, next: NextFunction) => {
    // Read at once when the settings are at hand (nearly always): a promise per request costs more than the rest.
    const now = embeddingOriginsAtHand(settings);
    if (now) return handle(now, req, res) ? undefined : next();
    loadEmbeddingOrigins(settings)
      .then((values) => (handle(values, req, res) ? undefined : next()))
      .catch(next);
  };
}

/** True when the answer is already sent (a preflight, a refusal). */
function handle(settings: EmbeddingOrigins, req: Request, res: Response): boolean {
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
  const trust = sdkOriginTrust(settings, origin);
  if (!trust) return false;
  res.setHeader('Access-Control-Allow-Origin', origin);
  if (trust === 'credentials') res.setHeader('Access-Control-Allow-Credentials', 'true');
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
    res.setHeader('Access-Control-Allow-Methods', CORS_ALLOWED_METHODS.join(', '));
    res.setHeader('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
    return true;
  }
  return false;
}

function frameAncestors(settings: EmbeddingOrigins, path: string): string {
  if (frameableAnywhere(path)) return '*';
  if (!settings.interactive) return "'none'";
  const origins = (settings.interactiveOrigins ?? '').split(/\s+/).filter(Boolean);
  return origins.length > 0 ? origins.join(' ') : "'none'";
}
