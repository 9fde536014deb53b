import { SDK_CLIENT_NAME, SDK_VERSION } from '../version';
import { AnalyticsAuthError, answerMessage } from './auth-errors';
import type { DefinedAuthConfig } from './config';
import { isSessionAnswer, type SessionAnswer } from './session';

/** Opens the identity provider's SAML login and resolves with the session handed over when it is done. */
export type SamlLogin = (url: string) => Promise<SessionAnswer>;

export interface LoginDeps {
  config: DefinedAuthConfig;
  fetch: typeof fetch;
  samlLogin?: SamlLogin;
}

export const CLIENT_HEADERS: Record<string, string> = { 'X-Metabase-Client': SDK_CLIENT_NAME, 'X-Metabase-Client-Version': SDK_VERSION };

/**
 * One sign-in through `/auth/sso`, as an embedding client: ask the server which method and where (`{url, method}`);
 * SAML: the popup; JWT: a token from `fetchRequestToken` or from the identity provider with `response=json` and the
 * browser's credentials, exchanged at `POST /auth/sso` for a session.
 */
export async function ssoLogin({ config, fetch: doFetch, samlLogin }: LoginDeps): Promise<SessionAnswer> {
  const base = config.analyticsInstanceUrl;
  // fetchRequestToken is JWT only: ask for JWT even where the server would default to SAML.
  const preferred = config.fetchRequestToken ? 'jwt' : config.preferredAuthMethod;
  const start = `${base}/auth/sso${preferred ? `?preferred_method=${preferred}` : ''}`;
  const where = await call(doFetch, start, { headers: CLIENT_HEADERS }, `the analytics server at ${base}`);
  if (!where.ok)
    throw new AnalyticsAuthError(`Could not start the sign-in: ${await answerMessage(where, `HTTP ${where.status}`)}`, where.status);
  const { url, method } = (await where.json()) as { url?: unknown; method?: unknown };
  if (typeof url !== 'string' || (method !== 'jwt' && method !== 'saml')) {
    throw new AnalyticsAuthError('The analytics server answered /auth/sso without an identity provider (is SSO configured?)');
  }
  if (method === 'saml') {
    if (!samlLogin) throw new AnalyticsAuthError('The analytics server asks for a SAML login, which needs a browser window');
    const answer = await samlLogin(url);
    if (!isSessionAnswer(answer)) throw new AnalyticsAuthError('The SAML login handed over no session');
    return answer;
  }
  const jwt = config.fetchRequestToken ? await customToken(config.fetchRequestToken) : await providerToken(doFetch, url);
  const exchanged = await call(
    doFetch,
    `${base}/auth/sso`,
    { method: 'POST', headers: { ...CLIENT_HEADERS, 'Content-Type': 'application/json' }, body: JSON.stringify({ jwt }) },
    `the analytics server at ${base}`,
  );
  if (!exchanged.ok)
    throw new AnalyticsAuthError(
      `The analytics server refused the token: ${await answerMessage(exchanged, `HTTP ${exchanged.status}`)}`,
      exchanged.status,
    );
  const answer = (await exchanged.json()) as unknown;
  if (!isSessionAnswer(answer)) throw new AnalyticsAuthError('The analytics server answered the token exchange without a session');
  return answer;
}

async function customToken(fetchRequestToken: NonNullable<DefinedAuthConfig['fetchRequestToken']>): Promise<string> {
  let result: unknown;
  try {
    result = await fetchRequestToken();
  } catch (e) {
    throw new AnalyticsAuthError(`\`fetchRequestToken\` failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const jwt = (result as { jwt?: unknown } | null)?.jwt;
  if (typeof jwt !== 'string' || !jwt) throw new AnalyticsAuthError('`fetchRequestToken` must resolve to `{ jwt: <string> }`');
  return jwt;
}

/** The customer's backend: `{jwt}` with `response=json`, or 401 `{status:'error', message}` with nobody signed in. */
async function providerToken(doFetch: typeof fetch, url: string): Promise<string> {
  const target = `${url}${url.includes('?') ? '&' : '?'}response=json`;
  const res = await call(doFetch, target, { credentials: 'include' }, `the identity provider at ${url}`);
  if (!res.ok)
    throw new AnalyticsAuthError(
      `The identity provider refused the sign-in: ${await answerMessage(res, `HTTP ${res.status}`)}`,
      res.status,
    );
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new AnalyticsAuthError(`The identity provider at ${url} did not answer JSON (does it handle response=json?)`);
  }
  const jwt = (body as { jwt?: unknown } | null)?.jwt;
  if (typeof jwt !== 'string' || !jwt) throw new AnalyticsAuthError(`The identity provider at ${url} answered no \`jwt\``);
  return jwt;
}

/** fetch, with a network failure (often CORS) turned into a message naming who could not be reached. */
export async function call(doFetch: typeof fetch, url: string, init: RequestInit, who: string): Promise<Response> {
  try {
    return await doFetch(url, init);
  } catch (e) {
    throw new AnalyticsAuthError(
      `Could not reach ${who} (${e instanceof Error ? e.message : String(e)}; is CORS set up for this page's origin?)`,
    );
  }
}
