import { AnalyticsConfigError, defineAnalyticsAuthConfig, validateAuthConfig } from './config';

const LOCAL = 'http://localhost:5173';
const PROD = 'https://app.example.com';
const valid = (config: unknown, origin: string | undefined = PROD) => validateAuthConfig(config, origin);
const fails = (config: unknown, message: RegExp, origin: string | undefined = PROD) => {
  expect(() => valid(config, origin)).toThrow(AnalyticsConfigError);
  expect(() => valid(config, origin)).toThrow(message);
};

describe('defineAnalyticsAuthConfig', () => {
  it('answers a frozen copy, the URL without a trailing slash', () => {
    const fetchRequestToken = async () => ({ jwt: 'x' });
    const c = valid({
      analyticsInstanceUrl: 'https://analytics.example.com/sub/',
      fetchRequestToken,
      preferredAuthMethod: 'jwt',
      useExistingUserSession: false,
    });
    expect(c).toMatchObject({
      analyticsInstanceUrl: 'https://analytics.example.com/sub',
      fetchRequestToken,
      preferredAuthMethod: 'jwt',
      useExistingUserSession: false,
    });
    expect(Object.isFrozen(c)).toBe(true);
    expect(valid({ analyticsInstanceUrl: 'http://localhost:3000' }).analyticsInstanceUrl).toBe('http://localhost:3000');
  });

  it('requires analyticsInstanceUrl, an absolute http(s) URL', () => {
    fails(undefined, /expected an object/);
    fails({}, /`analyticsInstanceUrl` is required/);
    fails({ analyticsInstanceUrl: 42 }, /`analyticsInstanceUrl` must be a string/);
    fails({ analyticsInstanceUrl: 'analytics.example.com' }, /`analyticsInstanceUrl` must be an absolute http\(s\) URL/);
    fails({ analyticsInstanceUrl: 'ftp://analytics.example.com' }, /`analyticsInstanceUrl` must be an http\(s\) URL/);
    fails({ analyticsInstanceUrl: 'https://a.example.com/?x=1' }, /must not carry a query/);
  });

  it('refuses authProviderUri (removed in 1.54.x) and unknown keys, naming them', () => {
    fails(
      { analyticsInstanceUrl: PROD, authProviderUri: 'https://app.example.com/sso' },
      /`authProviderUri` was removed in 1\.54\.x.*JWT Identity Provider URI/,
    );
    fails({ analyticsInstanceUrl: PROD, jwtProviderUri: 'x' }, /unknown key `jwtProviderUri`/);
  });

  it('fetchRequestToken: a function with no parameters, JWT only', () => {
    fails({ analyticsInstanceUrl: PROD, fetchRequestToken: 'https://x' }, /`fetchRequestToken` must be an async function/);
    fails(
      { analyticsInstanceUrl: PROD, fetchRequestToken: async (url: string) => ({ jwt: url }) },
      /`fetchRequestToken` must take no parameters/,
    );
    fails(
      { analyticsInstanceUrl: PROD, fetchRequestToken: async () => ({ jwt: 'x' }), preferredAuthMethod: 'saml' },
      /`fetchRequestToken` is for JWT only/,
    );
  });

  it('preferredAuthMethod is saml or jwt; useExistingUserSession a boolean', () => {
    expect(valid({ analyticsInstanceUrl: PROD, preferredAuthMethod: 'saml' }).preferredAuthMethod).toBe('saml');
    fails({ analyticsInstanceUrl: PROD, preferredAuthMethod: 'ldap' }, /`preferredAuthMethod` must be 'saml' or 'jwt', not "ldap"/);
    fails({ analyticsInstanceUrl: PROD, useExistingUserSession: 'yes' }, /`useExistingUserSession` must be a boolean/);
  });

  it('apiKey only on a localhost page (development), alone', () => {
    expect(valid({ analyticsInstanceUrl: PROD, apiKey: 'mb_key' }, LOCAL).apiKey).toBe('mb_key');
    expect(valid({ analyticsInstanceUrl: PROD, apiKey: 'mb_key' }, 'http://127.0.0.1:8080').apiKey).toBe('mb_key');
    fails(
      { analyticsInstanceUrl: PROD, apiKey: 'mb_key' },
      /`apiKey` is for local development only and is refused on https:\/\/app\.example\.com/,
    );
    expect(() => validateAuthConfig({ analyticsInstanceUrl: PROD, apiKey: 'mb_key' }, undefined)).toThrow(
      /refused on a page without an origin/,
    );
    fails({ analyticsInstanceUrl: PROD, apiKey: 'mb_key' }, /refused/, 'http://localhost.evil.test');
    fails({ analyticsInstanceUrl: PROD, apiKey: '' }, /`apiKey` must be a non-empty string/, LOCAL);
    fails({ analyticsInstanceUrl: PROD, apiKey: 'k', fetchRequestToken: async () => ({ jwt: 'x' }) }, /cannot be combined/, LOCAL);
  });

  it('reads the page origin from location', () => {
    const g = globalThis as { location?: unknown };
    const before = g.location;
    try {
      g.location = { origin: LOCAL };
      expect(defineAnalyticsAuthConfig({ analyticsInstanceUrl: PROD, apiKey: 'k' }).apiKey).toBe('k');
      g.location = { origin: PROD };
      expect(() => defineAnalyticsAuthConfig({ analyticsInstanceUrl: PROD, apiKey: 'k' })).toThrow(/local development only/);
    } finally {
      g.location = before;
    }
  });
});
