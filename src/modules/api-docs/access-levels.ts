import type { AccessLevel } from '../../common/auth/access.decorator';

/** What each @Access level means to a caller, as the document says it (see access.decorator.ts). */
export const ACCESS_TEXT: Readonly<Record<AccessLevel, string>> = {
  public: 'anyone, without credentials',
  user: 'any signed-in user or API key',
  admin: 'a superuser (admin)',
  'public-sharing': 'anyone, without credentials, while public sharing is on; the :uuid names a shared card, dashboard or action',
  embed: 'anyone holding a signed embedding token (in the path), while static embedding is on',
  'admin-preview': 'a superuser, with a signed embedding token to preview',
  sso: 'the single sign-on flows (JWT or SAML), while they are configured',
};

/** The refusals a level's guard answers before the route runs (the bodies are Metabase's plain text). */
export const ACCESS_REFUSALS: Readonly<Record<AccessLevel, Record<string, string>>> = {
  public: {},
  user: { '401': 'Unauthenticated: no valid session or API key' },
  admin: { '401': 'Unauthenticated: no valid session or API key', '403': 'Forbidden: the caller is not an admin' },
  'public-sharing': { '400': 'Public sharing is off, or the uuid is not a UUID', '404': 'Not found: the uuid names no shared object' },
  embed: { '400': 'The token is not valid for this resource, or embedding is off' },
  'admin-preview': { '401': 'Unauthenticated: no valid session', '403': 'Forbidden: the caller is not an admin' },
  sso: {},
};

/** Which credentials a level takes: the security requirement of its operations (none for the open ones). */
export const ACCESS_SECURITY: Readonly<Record<AccessLevel, Array<Record<string, string[]>>>> = {
  public: [],
  user: [{ session: [] }, { 'session-cookie': [] }, { 'api-key': [] }],
  admin: [{ session: [] }, { 'session-cookie': [] }, { 'api-key': [] }],
  'public-sharing': [],
  embed: [],
  'admin-preview': [{ session: [] }, { 'session-cookie': [] }],
  sso: [],
};
