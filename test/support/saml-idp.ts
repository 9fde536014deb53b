import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * A SAML identity provider made in the test: its own key pair and self-signed certificate, real responses built as
 * XML and signed with xml-crypto (RSA-SHA256, exclusive canonicalization, enveloped signature), the way IdPs do.
 */
export interface TestIdp {
  issuer: string;
  ssoUrl: string;
  cert: string;
  key: string;
}

export async function createIdp(issuer = 'https://idp.example.test/metadata'): Promise<TestIdp> {
  const pems = await generate([{ name: 'commonName', value: 'idp.example.test' }], { keySize: 2048, algorithm: 'sha256' });
  return { issuer, ssoUrl: 'https://idp.example.test/sso', cert: pems.cert, key: pems.private };
}

export const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

export interface ResponseOptions {
  inResponseTo: string;
  acsUrl: string;
  audience: string;
  email?: string;
  nameId?: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
  extra?: Record<string, string>;
  /** Issue instant; validity runs five minutes from it. */
  issuedAt?: Date;
  validForMs?: number;
  issuer?: string;
  assertionId?: string;
  responseId?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const newId = () => `_${randomBytes(16).toString('hex')}`;

function attribute(name: string, values: string[]): string {
  return `<saml:Attribute Name="${esc(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values
    .map(
      (v) =>
        '<saml:AttributeValue xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
        ` xsi:type="xs:string">${esc(v)}</saml:AttributeValue>`,
    )
    .join('')}</saml:Attribute>`;
}

export function assertionXml(idp: TestIdp, o: ResponseOptions): string {
  const issued = o.issuedAt ?? new Date();
  const until = new Date(issued.getTime() + (o.validForMs ?? 5 * 60_000)).toISOString();
  const notBefore = new Date(issued.getTime() - 5_000).toISOString();
  const email = o.email ?? 'saml.user@example.com';
  const attrs = [
    attribute(`${CLAIMS}/emailaddress`, [email]),
    o.firstName !== undefined ? attribute(`${CLAIMS}/givenname`, [o.firstName]) : '',
    o.lastName !== undefined ? attribute(`${CLAIMS}/surname`, [o.lastName]) : '',
    o.groups ? attribute('member_of', o.groups) : '',
    ...Object.entries(o.extra ?? {}).map(([k, v]) => attribute(k, [v])),
  ].join('');
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${o.assertionId ?? newId()}" Version="2.0"` +
    ` IssueInstant="${issued.toISOString()}">` +
    `<saml:Issuer>${esc(o.issuer ?? idp.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${esc(o.nameId ?? email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${until}" Recipient="${esc(o.acsUrl)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${until}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext>` +
    '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
    '</saml:AuthnContext></saml:AuthnStatement>' +
    `<saml:AttributeStatement>${attrs}</saml:AttributeStatement>` +
    `</saml:Assertion>`
  );
}

export function responseXml(idp: TestIdp, o: ResponseOptions, assertion: string): string {
  return (
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"' +
    ` ID="${o.responseId ?? newId()}" Version="2.0" ` +
    `IssueInstant="${(o.issuedAt ?? new Date()).toISOString()}" Destination="${esc(o.acsUrl)}" InResponseTo="${o.inResponseTo}">` +
    `<saml:Issuer>${esc(o.issuer ?? idp.issuer)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertion +
    `</samlp:Response>`
  );
}

/** Signs the element named `localName` (its first occurrence), placing the signature after its Issuer. */
export function sign(xml: string, localName: 'Assertion' | 'Response', key: string, cert: string): string {
  const sig = new SignedXml({ privateKey: key, publicCert: cert });
  sig.signatureAlgorithm = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
  sig.canonicalizationAlgorithm = 'http://www.w3.org/2001/10/xml-exc-c14n#';
  const xpath = `//*[local-name(.)='${localName}']`;
  sig.addReference({
    xpath,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, { prefix: 'ds', location: { reference: `${xpath}/*[local-name(.)='Issuer']`, action: 'after' } });
  return sig.getSignedXml();
}

/** A response as an IdP sends it: the assertion signed (`assertion`), the whole response (`response`), both, or none. */
export function signedResponse(idp: TestIdp, o: ResponseOptions, signed: 'assertion' | 'response' | 'both' | 'none' = 'assertion'): string {
  let assertion = assertionXml(idp, o);
  if (signed === 'assertion' || signed === 'both') assertion = sign(assertion, 'Assertion', idp.key, idp.cert);
  let xml = responseXml(idp, o, assertion);
  if (signed === 'response' || signed === 'both') xml = sign(xml, 'Response', idp.key, idp.cert);
  return xml;
}

export const encode = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');

/** What the IdP reads from our redirect: the AuthnRequest (inflated), its ID, and the RelayState. */
export function readAuthnRequest(url: string): { xml: string; id: string; relayState: string | null; params: URLSearchParams } {
  const u = new URL(url);
  const xml = inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in AuthnRequest ${xml}`);
  return { xml, id, relayState: u.searchParams.get('RelayState'), params: u.searchParams };
}
