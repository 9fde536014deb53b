import { checkReturnTo, INVALID_REDIRECT } from './return-to';

describe('checkReturnTo', () => {
  const hosts = ['analytics.example.com'];
  it.each([
    [undefined, '/'],
    ['', '/'],
    ['/dashboard/1?tab=2#x', '/dashboard/1?tab=2#x'],
    ['https://analytics.example.com/question/3', 'https://analytics.example.com/question/3'],
    ['http://ANALYTICS.example.com/', 'http://analytics.example.com/'],
  ])('%s goes to %s', (raw, expected) => expect(checkReturnTo(raw, hosts)).toBe(expected));

  it.each([
    '//evil.com/x', '/\\evil.com', 'https://evil.com/', 'https://analytics.example.com.evil.com/', 'https://user@analytics.example.com/',
    'javascript:alert(1)', 'data:text/html,x', 'dashboard/1', '/a\nb', 'https://analytics.example.com:8443/',
  ])('%s is refused', (raw) => expect(() => checkReturnTo(raw, hosts)).toThrow(INVALID_REDIRECT));
});
