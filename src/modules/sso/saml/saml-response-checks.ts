import { SamlRejected } from './saml-rejected.error';

/** Larger than any real response; a bigger body is refused before it is parsed. */
export const MAX_RESPONSE_BYTES = 256 * 1024;

/**
 * The decoded SAMLResponse, refused before any XML parser sees it when it declares a DOCTYPE or entities (entity
 * expansion, external entities), carries comments (a comment inside a NameID or an attribute value is dropped by
 * canonicalization, so the signature still holds while a naive reader sees a truncated value), or processing
 * instructions. Identity providers send none of these.
 */
export function decodeResponse(encoded: unknown): string {
  if (typeof encoded !== 'string' || encoded.length === 0) throw new SamlRejected('no SAMLResponse in the form');
  if (encoded.length > (MAX_RESPONSE_BYTES * 4) / 3 + 4) throw new SamlRejected('SAMLResponse too large');
  const compact = encoded.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw new SamlRejected('SAMLResponse is not base64');
  const xml = Buffer.from(compact, 'base64').toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlRejected('response declares a DOCTYPE or entities');
  if (xml.includes('<!--')) throw new SamlRejected('response contains XML comments');
  if (/<\?(?!xml[\s?])/i.test(xml) || (xml.match(/<\?/g) ?? []).length > 1)
    throw new SamlRejected('response contains processing instructions');
  return compact;
}

type Node = { $?: Record<string, string>; _?: string } & Record<string, unknown>;

function children(node: Node | undefined, name: string): Node[] {
  const v = node?.[name];
  return Array.isArray(v) ? (v as Node[]) : [];
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

export interface AssertionFacts {
  id: string;
  /** The request this assertion answers (from a signed SubjectConfirmationData). */
  inResponseTo: string;
  /** When the assertion stops being acceptable (epoch ms, without clock skew). */
  notOnOrAfter: number;
}

export interface AssertionExpectations {
  acsUrl: string;
  idpIssuer: string | null;
  maxAgeMs: number;
}

function instant(value: string | undefined, what: string): number {
  const ms = value ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new SamlRejected(`${what} missing or not a date`);
  return ms;
}

/**
 * Checks of the signed assertion that node-saml leaves to us: its issuer, a bearer confirmation addressed to our
 * assertion consumer (Recipient) answering one of our requests (InResponseTo), an expiry. `assertion` is the
 * parsed verified assertion (node-saml's `profile.getAssertion()`), never the unsigned envelope.
 */
export function checkSignedAssertion(parsed: unknown, expect: AssertionExpectations): AssertionFacts {
  const assertion = (parsed as { Assertion?: Node } | null)?.Assertion;
  if (!assertion) throw new SamlRejected('no signed assertion');
  const id = assertion.$?.ID;
  if (!id) throw new SamlRejected('assertion has no ID');
  const issuer = children(assertion, 'Issuer')[0];
  const issuerValue = typeof issuer === 'string' ? issuer : issuer?._;
  if (expect.idpIssuer !== null && issuerValue !== expect.idpIssuer) {
    throw new SamlRejected(`assertion issuer ${JSON.stringify(issuerValue ?? null)} is not the configured identity provider issuer`);
  }
  const conditions = children(assertion, 'Conditions');
  if (conditions.length !== 1) throw new SamlRejected('assertion must carry exactly one Conditions');
  const conditionsEnd = instant(conditions[0].$?.NotOnOrAfter, 'Conditions NotOnOrAfter');
  const issuedAt = instant(assertion.$?.IssueInstant, 'assertion IssueInstant');

  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .filter((c) => c.$?.Method === BEARER)
    .map((c) => children(c, 'SubjectConfirmationData')[0]?.$ ?? {});
  const mine = confirmations.find((d) => d.Recipient === expect.acsUrl);
  if (!mine) throw new SamlRejected('no bearer subject confirmation with our assertion consumer URL as Recipient');
  if (!mine.InResponseTo) throw new SamlRejected('subject confirmation does not answer a request (no InResponseTo)');
  const subjectEnd = instant(mine.NotOnOrAfter, 'SubjectConfirmationData NotOnOrAfter');
  return {
    id,
    inResponseTo: mine.InResponseTo,
    notOnOrAfter: Math.min(conditionsEnd, subjectEnd, issuedAt + expect.maxAgeMs),
  };
}

/** The envelope's Destination, when present, must be our assertion consumer (it is not always signed: a check, not a source). */
export function checkDestination(xml: string, acsUrl: string): void {
  const root = /<(?:[A-Za-z_][\w.-]*:)?Response\b([^>]*)>/.exec(xml);
  if (!root) throw new SamlRejected('not a SAML Response');
  const dest = /\sDestination\s*=\s*("([^"]*)"|'([^']*)')/.exec(root[1]);
  if (dest && (dest[2] ?? dest[3]) !== acsUrl) throw new SamlRejected('response Destination is not our assertion consumer URL');
}
