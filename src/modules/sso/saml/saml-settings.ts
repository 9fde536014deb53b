import { SettingsService } from '../../settings';

/** The SAML settings in force for one request (read at request time: a change applies to the next login). */
export interface SamlSettings {
  enabled: boolean;
  idpUri: string | null;
  idpCertificate: string | null;
  idpIssuer: string | null;
  /** Our entity id: the issuer of our AuthnRequests and the audience we expect. */
  applicationName: string;
  spCertificate: string | null;
  spPrivateKey: string | null;
  /** `{site-url}/auth/sso`: where the IdP posts, the Recipient and Destination we expect. */
  acsUrl: string | null;
  attributeEmail: string;
  attributeFirstName: string;
  attributeLastName: string;
  attributeGroup: string;
}

const blank = (v: string | null | undefined): string | null => (v && v.trim() ? v.trim() : null);

export async function readSamlSettings(settings: SettingsService): Promise<SamlSettings> {
  const get = (key: string) => settings.get<string | null>(key);
  const [enabled, idpUri, idpCertificate, idpIssuer, applicationName, spCertificate, spPrivateKey, siteUrl, email, first, last, group] =
    await Promise.all([
      settings.get<boolean>('saml-enabled'),
      get('saml-identity-provider-uri'),
      get('saml-identity-provider-certificate'),
      get('saml-identity-provider-issuer'),
      get('saml-application-name'),
      get('saml-sp-certificate'),
      get('saml-sp-private-key'),
      get('site-url'),
      get('saml-attribute-email'),
      get('saml-attribute-firstname'),
      get('saml-attribute-lastname'),
      get('saml-attribute-group'),
    ]);
  const site = blank(siteUrl);
  return {
    enabled: enabled === true,
    idpUri: blank(idpUri),
    idpCertificate: blank(idpCertificate),
    idpIssuer: blank(idpIssuer),
    applicationName: blank(applicationName) ?? 'Analytics',
    spCertificate: blank(spCertificate),
    spPrivateKey: blank(spPrivateKey),
    acsUrl: site ? `${site.replace(/\/+$/, '')}/auth/sso` : null,
    attributeEmail: blank(email) ?? '',
    attributeFirstName: blank(first) ?? '',
    attributeLastName: blank(last) ?? '',
    attributeGroup: blank(group) ?? '',
  };
}

/** SAML can start a login: on, with the IdP's URL and certificate, and a site URL to be posted back to. */
export type UsableSamlSettings = SamlSettings & { idpCertificate: string; acsUrl: string };

export function samlUsable(s: SamlSettings): s is UsableSamlSettings & { idpUri: string } {
  return s.enabled && s.idpUri !== null && s.idpCertificate !== null && s.acsUrl !== null;
}

/** The certificate as PEM, whether the admin pasted it with or without its BEGIN/END lines. */
export function certificatePem(cert: string): string {
  if (cert.includes('-----BEGIN')) return cert;
  const body = cert.replace(/\s+/g, '');
  return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n').replace(/\n$/, '')}\n-----END CERTIFICATE-----\n`;
}

/** Every certificate of the setting (several while an identity provider rolls its key over), each as PEM. */
export function certificatesPem(value: string): string[] {
  const blocks = value.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g);
  return blocks ? blocks.map((b) => `${b}\n`) : [certificatePem(value)];
}
