/**
 * The client auth configuration of the spec ("Client auth configuration (React embedding package)"), checked at once
 * when it is defined, so a wrong key fails where it is written and not at the first embedded component.
 */
export type AuthMethod = 'saml' | 'jwt';

export interface AnalyticsAuthConfig {
  /** Base URL of the analytics server, e.g. `https://analytics.example.com`. */
  analyticsInstanceUrl: string;
  /**
   * JWT only: fetches a token from your backend yourself (for headers instead of cookies). No parameters: it hardcodes
   * your endpoint. Must resolve to `{ jwt }`. Wrap it in a memoizing callback if it has dependencies.
   */
  fetchRequestToken?: () => Promise<{ jwt: string }>;
  /** When the server has both on; the server's default is SAML. */
  preferredAuthMethod?: AuthMethod;
  /** Development only (the page must be on localhost). */
  apiKey?: string;
  /** Use the analytics server's own session cookie (across sites it needs SameSite `None`). */
  useExistingUserSession?: boolean;
}

/** The checked config: the URL without a trailing slash. */
export type DefinedAuthConfig = Readonly<AnalyticsAuthConfig> & { readonly __defined: true };

export class AnalyticsConfigError extends Error {
  constructor(message: string) {
    super(`Invalid analytics auth config: ${message}`);
    this.name = 'AnalyticsConfigError';
  }
}

const KEYS = ['analyticsInstanceUrl', 'fetchRequestToken', 'preferredAuthMethod', 'apiKey', 'useExistingUserSession'];
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Checks `config` and answers a frozen copy to pass as `authConfig` to `AnalyticsProvider`. */
export function defineAnalyticsAuthConfig(config: AnalyticsAuthConfig): DefinedAuthConfig {
  const origin = typeof globalThis.location?.origin === 'string' ? globalThis.location.origin : undefined;
  return validateAuthConfig(config, origin);
}

/** `pageOrigin`: the origin of the page (undefined outside a browser), which decides whether `apiKey` is allowed. */
export function validateAuthConfig(config: unknown, pageOrigin: string | undefined): DefinedAuthConfig {
  if (!config || typeof config !== 'object' || Array.isArray(config)) throw new AnalyticsConfigError('expected an object');
  const c = config as Record<string, unknown>;
  if ('authProviderUri' in c) {
    throw new AnalyticsConfigError(
      '`authProviderUri` was removed in 1.54.x: the server\'s "JWT Identity Provider URI" setting is used instead. ' +
        'Remove the key; a custom `fetchRequestToken` takes no parameters and calls your endpoint itself.',
    );
  }
  const unknown = Object.keys(c).filter((k) => !KEYS.includes(k));
  if (unknown.length) throw new AnalyticsConfigError(`unknown key \`${unknown[0]}\` (the keys are ${KEYS.join(', ')})`);

  const url = instanceUrl(c.analyticsInstanceUrl);
  const out: AnalyticsAuthConfig = { analyticsInstanceUrl: url };

  if (c.fetchRequestToken !== undefined) {
    if (typeof c.fetchRequestToken !== 'function') throw new AnalyticsConfigError('`fetchRequestToken` must be an async function');
    if (c.fetchRequestToken.length !== 0) {
      throw new AnalyticsConfigError(
        '`fetchRequestToken` must take no parameters (since 1.54.x it no longer receives a URL; hardcode your endpoint)',
      );
    }
    out.fetchRequestToken = c.fetchRequestToken as AnalyticsAuthConfig['fetchRequestToken'];
  }
  if (c.preferredAuthMethod !== undefined) {
    if (c.preferredAuthMethod !== 'saml' && c.preferredAuthMethod !== 'jwt') {
      throw new AnalyticsConfigError(`\`preferredAuthMethod\` must be 'saml' or 'jwt', not ${JSON.stringify(c.preferredAuthMethod)}`);
    }
    if (c.preferredAuthMethod === 'saml' && out.fetchRequestToken) {
      throw new AnalyticsConfigError("`fetchRequestToken` is for JWT only and cannot be used with `preferredAuthMethod: 'saml'`");
    }
    out.preferredAuthMethod = c.preferredAuthMethod;
  }
  if (c.useExistingUserSession !== undefined) {
    if (typeof c.useExistingUserSession !== 'boolean') throw new AnalyticsConfigError('`useExistingUserSession` must be a boolean');
    out.useExistingUserSession = c.useExistingUserSession;
  }
  if (c.apiKey !== undefined) {
    if (typeof c.apiKey !== 'string' || !c.apiKey.trim()) throw new AnalyticsConfigError('`apiKey` must be a non-empty string');
    if (!isLocalOrigin(pageOrigin)) {
      throw new AnalyticsConfigError(
        `\`apiKey\` is for local development only and is refused on ${pageOrigin ?? 'a page without an origin'}: ` +
          'production embedding signs users in with JWT SSO or SAML (remove `apiKey`)',
      );
    }
    if (out.fetchRequestToken || out.useExistingUserSession) {
      throw new AnalyticsConfigError('`apiKey` cannot be combined with `fetchRequestToken` or `useExistingUserSession`');
    }
    out.apiKey = c.apiKey;
  }
  return Object.freeze({ ...out, __defined: true as const });
}

function instanceUrl(value: unknown): string {
  if (value === undefined || value === null || value === '') throw new AnalyticsConfigError('`analyticsInstanceUrl` is required');
  if (typeof value !== 'string') throw new AnalyticsConfigError('`analyticsInstanceUrl` must be a string');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AnalyticsConfigError(`\`analyticsInstanceUrl\` must be an absolute http(s) URL, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AnalyticsConfigError(`\`analyticsInstanceUrl\` must be an http(s) URL, not ${JSON.stringify(value)}`);
  }
  if (url.search || url.hash) throw new AnalyticsConfigError('`analyticsInstanceUrl` must not carry a query or a fragment');
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function isLocalOrigin(origin: string | undefined): boolean {
  if (!origin) return false;
  try {
    return LOCAL_HOSTS.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}
