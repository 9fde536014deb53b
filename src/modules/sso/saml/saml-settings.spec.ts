import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import type { SettingsService } from '../../settings/settings.service';
import { certificatePem, certificatesPem, readSamlSettings, samlUsable } from './saml-settings';

function settingsOf(values: Record<string, unknown>): SettingsService {
  return { get: async (key: string) => values[key] ?? null } as unknown as SettingsService;
}

describe('SAML settings', () => {
  it('reads the assertion consumer from the site URL and trims what the admin pasted', async () => {
    const s = await readSamlSettings(
      settingsOf({
        'saml-enabled': true,
        'site-url': 'https://bi.example/',
        'saml-identity-provider-uri': ' https://idp/sso ',
        'saml-identity-provider-certificate': 'CERT',
        'saml-application-name': 'bi',
      }),
    );
    expect(s.acsUrl).toBe('https://bi.example/auth/sso');
    expect(s.idpUri).toBe('https://idp/sso');
    expect(s.applicationName).toBe('bi');
    expect(samlUsable(s)).toBe(true);
  });

  it.each([
    ['off', { 'saml-enabled': false }],
    ['without the IdP URL', { 'saml-identity-provider-uri': '' }],
    ['without the IdP certificate', { 'saml-identity-provider-certificate': null }],
    ['without a site URL', { 'site-url': null }],
  ])('is not usable %s', async (_name, over) => {
    const base = {
      'saml-enabled': true,
      'site-url': 'https://bi.example',
      'saml-identity-provider-uri': 'https://idp/sso',
      'saml-identity-provider-certificate': 'CERT',
    };
    expect(samlUsable(await readSamlSettings(settingsOf({ ...base, ...over })))).toBe(false);
  });

  it('takes the certificate with or without its PEM armour', async () => {
    const { cert } = await generate([{ name: 'commonName', value: 'idp' }], { keySize: 2048 });
    const bare = cert.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    expect(new X509Certificate(certificatePem(bare)).fingerprint256).toBe(new X509Certificate(cert).fingerprint256);
    expect(certificatePem(cert)).toBe(cert);
  });

  it('splits several certificates (a key rollover) into one PEM each', async () => {
    const [one, two] = await Promise.all([1, 2].map(() => generate([{ name: 'commonName', value: 'idp' }], { keySize: 2048 })));
    const pems = certificatesPem(`${one.cert}\n${two.cert}`);
    expect(pems.map((p) => new X509Certificate(p).fingerprint256)).toEqual(
      [one.cert, two.cert].map((c) => new X509Certificate(c).fingerprint256),
    );
  });
});
