import { loginPath, safeRedirect } from '../../web/src/app/auth/redirect';

/** Where sign-in sends the browser afterwards: the server's `return_to` rule, relative paths only. */
describe('the application: sign-in redirects', () => {
  it.each([
    ['/admin/people?q=a#top', '/admin/people?q=a#top'],
    ['/collection/5-marketing', '/collection/5-marketing'],
    ['/', '/'],
  ])('keeps a path on this site: %s', (raw, want) => {
    expect(safeRedirect(raw)).toBe(want);
  });

  it.each([
    [null],
    [''],
    ['https://evil.example/x'],
    ['//evil.example/x'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    ['admin'],
    ['/admin\u0000'],
    ['/x\n'],
    ['/auth/login?redirect=/x'],
    ['/setup'],
  ])('answers home for anything else: %j', (raw) => {
    expect(safeRedirect(raw)).toBe('/');
  });

  it('answers home for a path longer than 2048 characters', () => {
    expect(safeRedirect(`/${'a'.repeat(2047)}`)).toBe(`/${'a'.repeat(2047)}`);
    expect(safeRedirect(`/${'a'.repeat(2048)}`)).toBe('/');
  });

  it('the sign-in path carries where to come back to, encoded; home needs none', () => {
    expect(loginPath('/admin/people?q=a b')).toBe('/auth/login?redirect=%2Fadmin%2Fpeople%3Fq%3Da%20b');
    expect(loginPath('/')).toBe('/auth/login');
    expect(loginPath('//evil.example')).toBe('/auth/login');
  });
});
