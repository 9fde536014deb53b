import { localhostAllowed, normalOrigin, sdkOriginTrust, trustedWithCookies, type EmbeddingOrigins } from './origin-policy';

const OFF: EmbeddingOrigins = { sdk: false, sdkOrigins: null, interactive: false, interactiveOrigins: null, siteUrl: null };

describe('origin policy', () => {
  it('trusts named SDK origins with credentials, `*`-only origins with header credentials only', () => {
    const s = { ...OFF, sdk: true, sdkOrigins: 'https://app.customer.test *.partner.test *' };
    expect(sdkOriginTrust(s, 'https://app.customer.test')).toBe('credentials');
    expect(sdkOriginTrust(s, 'https://eu.partner.test')).toBe('credentials');
    expect(sdkOriginTrust(s, 'https://evil.example')).toBe('headers');
    expect(sdkOriginTrust({ ...s, sdkOrigins: 'https://app.customer.test' }, 'https://evil.example')).toBeUndefined();
    expect(sdkOriginTrust(s, 'null')).toBeUndefined();
    expect(sdkOriginTrust({ ...s, sdk: false }, 'https://app.customer.test')).toBeUndefined();
  });

  it('trusts localhost in development only', () => {
    const s = { ...OFF, sdk: true };
    expect(sdkOriginTrust(s, 'http://localhost:5173')).toBe('credentials');
    expect(sdkOriginTrust({ ...s, siteUrl: 'https://analytics.example.com' }, 'http://localhost:5173')).toBeUndefined();
    expect(sdkOriginTrust({ ...s, siteUrl: 'https://analytics.example.com', sdkOrigins: '*' }, 'http://localhost:5173')).toBe('headers');
    expect(localhostAllowed(null, 'development')).toBe(true);
    expect(localhostAllowed('http://analytics.internal', undefined)).toBe(true);
    expect(localhostAllowed(null, 'production')).toBe(false);
    expect(localhostAllowed('HTTPS://analytics.example.com', 'test')).toBe(false);
  });

  it('lets cookies come from credentialed SDK origins and named interactive origins, never through `*`', () => {
    const s = {
      ...OFF,
      sdk: true,
      sdkOrigins: '* https://app.customer.test',
      interactive: true,
      interactiveOrigins: 'https://portal.customer.test *',
    };
    expect(trustedWithCookies(s, 'https://app.customer.test')).toBe(true);
    expect(trustedWithCookies(s, 'https://portal.customer.test')).toBe(true);
    expect(trustedWithCookies(s, 'https://evil.example')).toBe(false);
    expect(trustedWithCookies({ ...s, interactive: false }, 'https://portal.customer.test')).toBe(false);
  });

  it('normalizes origins as browsers send them; `null` and garbage are none', () => {
    expect(normalOrigin('HTTPS://Analytics.Example.com:443')).toBe('https://analytics.example.com');
    expect(normalOrigin('null')).toBeUndefined();
    expect(normalOrigin('file:///x')).toBeUndefined();
    expect(normalOrigin(undefined)).toBeUndefined();
  });
});
