import { createPrivateKey, X509Certificate } from 'node:crypto';
import { SettingDefinition } from './setting-definition';
import { DEFAULT_UPLOADS_SETTINGS, uploadsSettingsShape } from './uploads-settings';
import { DEFAULT_REFRESH_SCHEDULE, parseRefreshSchedule } from './refresh-schedule';

const HEX64 = /^[0-9a-fA-F]{64}$/;
const SAML_CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

function httpUrl(value: string): string | undefined {
  try {
    const u = new URL(value);
    if (u.protocol === 'http:' || u.protocol === 'https:') return undefined;
  } catch {
    /* fall through */
  }
  return 'value must be an http:// or https:// URL.';
}

/** An IANA time zone name the runtime knows (the query engine converts timestamps into it). */
function timeZone(value: string): string | undefined {
  try {
    if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(value)) {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return undefined;
    }
  } catch {
    /* fall through */
  }
  return 'value must be a time zone name such as Europe/Berlin.';
}

/** Space-separated origins; `*` and `*.domain` patterns, with optional scheme and port. */
function origins(value: string): string | undefined {
  const bad = value
    .split(/\s+/)
    .filter(Boolean)
    .find((o) => !/^(\*|(https?:\/\/)?(\*\.)?[a-zA-Z0-9.-]+(:\d{1,5})?)$/.test(o));
  return bad ? `value must be a space-separated list of origins; "${bad}" is not one.` : undefined;
}

/** `{"<group name>": [<group id>, ...]}`. */
function groupMappings(value: unknown): string | undefined {
  const ok =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value as object).every((ids) => Array.isArray(ids) && ids.every((id) => Number.isInteger(id) && id > 0));
  return ok ? undefined : 'value must be a map from group names to arrays of group ids.';
}

/** `none` makes the cookie `Secure`, which browsers keep only over HTTPS: refused unless the site URL is https. */
async function sameSiteNoneNeedsHttps(value: unknown, read: (key: string) => Promise<unknown>): Promise<string | undefined> {
  if (value !== 'none') return undefined;
  const site = await read('site-url');
  return typeof site === 'string' && site.startsWith('https://')
    ? undefined
    : 'value `none` needs an https:// site URL (`site-url`): the cookie is then Secure.';
}

/**
 * Turning JWT or SAML sign-in on needs what a login cannot start without (in force, or sent in the same call), so
 * the switch never says "on" while /auth/sso refuses. Metabase accepts the switch and reads it as off; refusing
 * tells the admin why. Clearing one of them later is allowed: the sign-in then stops (other-sso-enabled? says so).
 */
function enablingNeeds(what: string, keys: string[]) {
  return async (value: unknown, read: (key: string) => Promise<unknown>): Promise<string | undefined> => {
    if (value !== true) return undefined;
    const values = await Promise.all(keys.map(read));
    const missing = keys.filter((_, i) => !(typeof values[i] === 'string' && (values[i] as string).trim() !== ''));
    if (missing.length === 0) return undefined;
    return `${what} cannot be turned on before ${missing.map((k) => `\`${k}\``).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} set.`;
  };
}

/**
 * The feature flags of Metabase's `token-features`, true for what this server does. The embedding SDK renders nothing
 * unless `embedding_sdk` and the flag of its auth method are true.
 */
export const TOKEN_FEATURES: Readonly<Record<string, boolean>> = {
  embedding: true,
  embedding_sdk: true,
  embedding_simple: false,
  sso_jwt: true,
  sso_saml: true,
  sso_google: false,
  sso_ldap: false,
  session_timeout_config: false,
  whitelabel: false,
  audit_app: false,
  sandboxes: false,
  advanced_permissions: false,
  content_verification: false,
  official_collections: false,
  cache_granular_controls: false,
  disable_password_login: true,
  hosting: false,
};

/** One or more X.509 certificates in PEM, or one as bare base64 (as identity providers show it). */
function certificates(value: string): string | undefined {
  const blocks = value.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [
    `-----BEGIN CERTIFICATE-----\n${value.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`,
  ];
  try {
    blocks.forEach((pem) => new X509Certificate(pem));
    return undefined;
  } catch {
    return 'value must be an X.509 certificate (PEM, or its base64 body).';
  }
}

function privateKey(value: string): string | undefined {
  try {
    createPrivateKey(value);
    return undefined;
  } catch {
    return 'value must be an unencrypted private key in PEM.';
  }
}

/**
 * The conditions /auth/sso needs to start a login (sso-method.guard.ts, saml-settings.ts): JWT on with its secret and
 * identity provider; or SAML on with its identity provider's URL and certificate and a site URL to be posted back to.
 */
async function otherSsoEnabled(read: (key: string) => Promise<unknown>): Promise<boolean> {
  const keys = ['jwt-enabled', 'jwt-shared-secret', 'jwt-identity-provider-uri', 'saml-enabled', 'saml-identity-provider-uri'];
  const [jwt, jwtSecret, jwtUri, saml, samlUri, samlCert, siteUrl] = await Promise.all(
    [...keys, 'saml-identity-provider-certificate', 'site-url'].map(read),
  );
  const set = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  return (jwt === true && set(jwtSecret) && set(jwtUri)) || (saml === true && set(samlUri) && set(samlCert) && set(siteUrl));
}

const bool = (
  key: string,
  def: boolean,
  description: string,
  visibility: SettingDefinition['visibility'] = 'admin',
): SettingDefinition => ({ key, type: 'boolean', default: def, description, visibility });
const str = (key: string, description: string, extra: Partial<SettingDefinition<string>> = {}): SettingDefinition =>
  ({ key, type: 'string', description, visibility: 'admin', ...extra }) as SettingDefinition;

/** Every setting the server knows. A key not listed here is refused. */
export const SETTINGS: SettingDefinition[] = [
  str('site-name', 'The name used for this instance.', { default: 'Analytics', visibility: 'public' }),
  str('site-url', 'The base URL users reach this instance at.', { visibility: 'public', validate: httpUrl }),
  str('site-locale', 'The default language of this instance.', {
    default: 'en',
    visibility: 'public',
    validate: (v) => (/^[a-z]{2}(_[A-Z]{2})?$/.test(v) ? undefined : 'value must be a locale such as en or pt_BR.'),
  }),
  str('admin-email', 'The email address users contact for help.', { visibility: 'authenticated' }),
  {
    key: 'password-complexity',
    type: 'enum',
    options: ['weak', 'normal', 'strong'],
    default: 'normal',
    visibility: 'public',
    description: 'How strong passwords must be.',
  },
  bool('enable-password-login', true, 'Allow logging in with email and password.', 'public'),
  {
    key: 'session-cookie-samesite',
    type: 'enum',
    options: ['lax', 'none', 'strict'],
    default: 'lax',
    visibility: 'public',
    description: 'SameSite attribute of the session cookie.',
    validateWith: sameSiteNoneNeedsHttps,
  },
  str('report-timezone', 'Time zone that reports are shown in.', { visibility: 'authenticated', validate: timeZone }),
  bool('anon-tracking-enabled', false, 'Share anonymous usage statistics (nothing is sent anywhere by this server).', 'public'),

  bool('enable-public-sharing', false, 'Allow public links to questions and dashboards.', 'authenticated'),
  bool('enable-embedding-static', false, 'Allow static embedding with signed tokens.', 'authenticated'),
  // Public: the SDK reads it (and token-features) from /api/session/properties before it has a session.
  bool('enable-embedding-sdk', false, 'Allow embedding with the React SDK.', 'public'),
  {
    key: 'token-features',
    type: 'json',
    visibility: 'public',
    description: 'The features this server supports.',
    getter: () => ({ ...TOKEN_FEATURES }),
  },
  bool('enable-embedding-interactive', false, 'Allow interactive (full-app) embedding.', 'authenticated'),
  str('embedding-secret-key', 'Secret that signs embedding tokens (64 hexadecimal characters).', {
    sensitive: true,
    validate: (v) => (HEX64.test(v) ? undefined : 'value must be 64 hexadecimal characters.'),
  }),
  str('embedding-app-origins-sdk', 'Origins allowed to embed with the SDK.', { default: '', validate: origins }),
  str('embedding-app-origins-interactive', 'Origins allowed to embed interactively.', { default: '', validate: origins }),

  {
    ...bool('jwt-enabled', false, 'Allow login with JWT SSO.', 'authenticated'),
    validateWith: enablingNeeds('JWT sign-in', ['jwt-identity-provider-uri', 'jwt-shared-secret']),
  },
  str('jwt-identity-provider-uri', 'URL of the JWT identity provider.', { validate: httpUrl }),
  str('jwt-shared-secret', 'Secret shared with the JWT identity provider.', {
    sensitive: true,
    validate: (v) => (v.length >= 16 ? undefined : 'value must be at least 16 characters long.'),
  }),
  str('jwt-attribute-email', 'JWT claim holding the email.', { default: 'email' }),
  str('jwt-attribute-firstname', 'JWT claim holding the first name.', { default: 'first_name' }),
  str('jwt-attribute-lastname', 'JWT claim holding the last name.', { default: 'last_name' }),
  str('jwt-attribute-groups', 'JWT claim holding the group names.', { default: 'groups' }),
  bool('jwt-group-sync', false, 'Sync group memberships from JWT claims.'),
  {
    key: 'jwt-group-mappings',
    type: 'json',
    default: {},
    visibility: 'admin',
    validate: groupMappings,
    description: 'JWT group names to group ids.',
  },
  bool('jwt-user-provisioning-enabled?', true, 'Create users on their first JWT login.'),
  str('jwt-attribute-tenant', 'JWT claim naming the tenant of an external user.', { default: '@tenant' }),
  // Read by every client: tenant users see a different app. Its write rules are the tenants module's (onWrite).
  bool('use-tenants', false, 'Keep tenants: external users signed in through SSO, apart from internal users.', 'authenticated'),

  {
    ...bool('saml-enabled', false, 'Allow login with SAML.', 'authenticated'),
    validateWith: enablingNeeds('SAML sign-in', ['saml-identity-provider-uri', 'saml-identity-provider-certificate']),
  },
  // Metabase's: read by the sign-in page before anyone is signed in, to offer "Sign in with SSO" (GET /auth/sso).
  {
    key: 'other-sso-enabled?',
    type: 'boolean',
    visibility: 'public',
    description: 'Whether JWT or SAML sign-in is on and configured.',
    getter: otherSsoEnabled,
  },
  str('saml-identity-provider-uri', 'SSO URL of the SAML identity provider.', { validate: httpUrl }),
  str('saml-identity-provider-certificate', 'X.509 certificate of the identity provider (PEM; several for a rollover).', {
    validate: certificates,
  }),
  str('saml-identity-provider-issuer', 'Issuer (entity id) of the identity provider.'),
  str('saml-application-name', 'Name of this application at the identity provider.', { default: 'Analytics' }),
  str('saml-sp-certificate', 'Certificate that signs our SAML requests (PEM).', { validate: certificates }),
  str('saml-sp-private-key', 'Private key that signs our SAML requests (PEM).', { sensitive: true, validate: privateKey }),
  str('saml-attribute-email', 'SAML attribute holding the email.', { default: `${SAML_CLAIMS}/emailaddress` }),
  str('saml-attribute-firstname', 'SAML attribute holding the first name.', { default: `${SAML_CLAIMS}/givenname` }),
  str('saml-attribute-lastname', 'SAML attribute holding the last name.', { default: `${SAML_CLAIMS}/surname` }),
  str('saml-attribute-group', 'SAML attribute holding the group names.', { default: 'member_of' }),
  bool('saml-group-sync', false, 'Sync group memberships from SAML attributes.'),
  {
    key: 'saml-group-mappings',
    type: 'json',
    default: {},
    visibility: 'admin',
    validate: groupMappings,
    description: 'SAML group names to group ids.',
  },
  bool('saml-user-provisioning-enabled?', true, 'Create users on their first SAML login.'),
  str('saml-attribute-tenant', 'SAML attribute naming the tenant of an external user.', { default: '@tenant' }),
  // Read by every user: the client shows the upload button only when uploads are configured.
  {
    key: 'uploads-settings',
    type: 'json',
    default: DEFAULT_UPLOADS_SETTINGS,
    visibility: 'authenticated',
    validate: uploadsSettingsShape,
    description: 'Where CSV uploads go: {db_id, schema_name, table_prefix}.',
  },

  {
    key: 'query-execution-retention-days',
    type: 'integer',
    default: 30,
    visibility: 'admin',
    description: 'Days the query execution log is kept; below 1 keeps it forever.',
  },
  bool('enable-query-caching', false, 'Reuse the results of saved questions for their cache TTL.', 'authenticated'),
  {
    key: 'query-caching-ttl-ratio',
    type: 'integer',
    default: 10,
    visibility: 'admin',
    description: 'Without a set TTL, cache a question for its average running time times this.',
  },
  {
    key: 'query-caching-min-ttl',
    type: 'integer',
    default: 60,
    visibility: 'admin',
    description: 'Only results of runs longer than this many seconds are cached.',
  },

  bool('persisted-models-enabled', false, 'Allow models to be persisted (their results stored as tables in their databases).'),
  str(
    'persisted-model-refresh-cron-schedule',
    'When persisted models are rebuilt: a Quartz cron expression within a day, or a number of hours (UTC).',
    {
      default: DEFAULT_REFRESH_SCHEDULE,
      validate: (v) => {
        const parsed = parseRefreshSchedule(v);
        return typeof parsed === 'string' ? parsed : undefined;
      },
    },
  ),

  // Kept by the server itself; never set through the API.
  { key: 'setup-token', type: 'string', visibility: 'internal', description: 'Token that authorizes the first setup.' },
  { key: 'settings-last-updated', type: 'string', visibility: 'internal', description: 'When any setting last changed.' },
  { key: 'data-permissions-revision', type: 'string', visibility: 'internal', description: 'Revision of the data permissions graph.' },
  { key: 'sample-database-loaded', type: 'string', visibility: 'internal', description: 'Set once the Sample Database was loaded.' },
  {
    key: 'persisted-models-site-id',
    type: 'string',
    visibility: 'internal',
    description: 'Names the schemas persisted models are stored in.',
  },
];

export const EMBEDDING_TOGGLES = ['enable-embedding-static', 'enable-embedding-sdk', 'enable-embedding-interactive'];
