import type { EmbeddingOrigins } from '../../common/http/origin-policy';
import { checkReturnTo, INVALID_REDIRECT, redirectTargets } from './return-to';

const NO_EMBEDDING: EmbeddingOrigins = { sdk: false, sdkOrigins: null, interactive: false, interactiveOrigins: null, siteUrl: null };

describe('checkReturnTo', () => {
  const site = redirectTargets({ ...NO_EMBEDDING, siteUrl: 'https://analytics.example.com' });
  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/dashboard/1?tab=2#x', '/dashboard/1?tab=2#x'],
    ['https://analytics.example.com/question/3', 'https://analytics.example.com/question/3'],
    ['http://ANALYTICS.example.com/', 'http://analytics.example.com/'],
  ])('%s goes to %s', (raw, expected) => expect(checkReturnTo(raw, site)).toBe(expected));

  it.each([
    '//evil.com/x',
    '/\\evil.com',
    'https://evil.com/',
    'https://analytics.example.com.evil.com/',
    'https://user@analytics.example.com/',
    'javascript:alert(1)',
    'data:text/html,x',
    'dashboard/1',
    '/a\nb',
    'https://analytics.example.com:8443/',
  ])('%s is refused', (raw) => expect(() => checkReturnTo(raw, site)).toThrow(INVALID_REDIRECT));

  it("takes only paths without a site URL: no host is our own then (the Host header is the caller's)", () => {
    const none = redirectTargets(NO_EMBEDDING);
    expect(checkReturnTo('/after-login', none)).toBe('/after-login');
    expect(() => checkReturnTo('http://evil.example/after-login', none)).toThrow(INVALID_REDIRECT);
    expect(() => checkReturnTo('http://localhost:3000/', redirectTargets({ ...NO_EMBEDDING, siteUrl: 'not a url' }))).toThrow(
      INVALID_REDIRECT,
    );
  });

  it('takes the embedding origins trusted with cookies, with or without a site URL; `*` is not one', () => {
    const embedding = {
      ...NO_EMBEDDING,
      sdk: true,
      sdkOrigins: 'https://app.customer.test *',
      interactive: true,
      interactiveOrigins: '*.partner.test',
    };
    const targets = redirectTargets(embedding);
    expect(checkReturnTo('https://app.customer.test/home', targets)).toBe('https://app.customer.test/home');
    expect(checkReturnTo('https://eu.partner.test/x', targets)).toBe('https://eu.partner.test/x');
    expect(() => checkReturnTo('https://evil.example/', targets)).toThrow(INVALID_REDIRECT);
    expect(() => checkReturnTo('http://app.customer.test/home', targets)).toThrow(INVALID_REDIRECT);
    // off: the SDK's origins no longer count
    expect(() => checkReturnTo('https://app.customer.test/home', redirectTargets({ ...embedding, sdk: false }))).toThrow(INVALID_REDIRECT);
  });
});
