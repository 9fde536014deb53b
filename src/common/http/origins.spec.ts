import { isLocalhostOrigin, originMatches, parseOriginPatterns } from './origins';

describe('origin patterns', () => {
  const patterns = parseOriginPatterns('https://app.example.com  *.partner.io example.org:8443 bad/pattern');
  it.each([
    ['https://app.example.com', true],
    ['http://app.example.com', false],
    ['https://app.example.com:444', false],
    ['https://eu.partner.io', true],
    ['https://a.b.partner.io', true],
    ['https://partner.io', false],
    ['https://evilpartner.io', false],
    ['http://example.org:8443', true],
    ['https://example.org', false],
    ['https://app.example.com.evil.com', false],
    ['null', false],
    ['https://app.example.com/path', false],
  ])('%s: %s', (origin, ok) => expect(originMatches(origin, patterns)).toBe(ok));

  it('`*` approves any http(s) origin; nothing approves a non-origin', () => {
    expect(originMatches('https://anything.test', parseOriginPatterns('*'))).toBe(true);
    expect(originMatches('file://x', parseOriginPatterns('*'))).toBe(false);
    expect(originMatches('https://x.test', parseOriginPatterns(''))).toBe(false);
  });

  it('tells localhost origins', () => {
    expect(isLocalhostOrigin('http://localhost:3000')).toBe(true);
    expect(isLocalhostOrigin('http://127.0.0.1')).toBe(true);
    expect(isLocalhostOrigin('http://[::1]:8080')).toBe(true);
    expect(isLocalhostOrigin('http://localhost.evil.com')).toBe(false);
    expect(isLocalhostOrigin(undefined)).toBe(false);
  });
});
