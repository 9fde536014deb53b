import { SETTINGS } from '../../src/modules/settings/setting-registry';
import { allowsAnySite, originsProblem } from '../../web/src/app/admin/embedding/origins';

/**
 * The embedding screens check origin patterns as the admin types; the server checks them again on save. Both must
 * agree, or the screen would accept what the server then refuses (or refuse what it takes).
 */
describe('origin patterns: the screen checks what the server checks', () => {
  const server = (key: string) => SETTINGS.find((d) => d.key === key)!.validate as (v: string) => string | undefined;
  const cases = [
    '',
    'https://app.example.com',
    'app.example.com',
    '*.example.com',
    'http://localhost:3000',
    '*',
    'https://a.example.com *.b.example.com:8443',
    'https://app.example.com/',
    'ftp://app.example.com',
    'https://*.example.com',
    'https://app.example.com/path',
    'exa mple.com,other.com',
    'https://app.example.com:123456',
    'app_example.com',
  ];

  it.each(cases)('%j', (value) => {
    for (const key of ['embedding-app-origins-sdk', 'embedding-app-origins-interactive']) {
      expect(originsProblem(value)).toBe(server(key)(value) ?? null);
    }
  });

  it('spots the bare * among the patterns, not *.domain', () => {
    expect(allowsAnySite('https://a.example.com *')).toBe(true);
    expect(allowsAnySite('*.example.com')).toBe(false);
  });
});
