import { checkDestination, checkSignedAssertion, decodeResponse, MAX_RESPONSE_BYTES } from './saml-response-checks';
import { SamlRejected } from './saml-rejected.error';

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const reason = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SamlRejected);
    return (err as SamlRejected).reason;
  }
  throw new Error('not refused');
};

describe('decodeResponse', () => {
  it('passes a plain response through, whitespace in the base64 dropped', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><samlp:Response ID="_1"/>';
    const encoded = b64(xml);
    expect(decodeResponse(`${encoded.slice(0, 10)}\r\n${encoded.slice(10)}`)).toBe(encoded);
  });

  it.each([
    ['nothing', undefined, /no SAMLResponse/],
    ['not a string', ['x'], /no SAMLResponse/],
    ['not base64', 'abc$%', /not base64/],
    ['a DOCTYPE', b64('<!DOCTYPE r [<!ENTITY e "x">]><r>&e;</r>'), /DOCTYPE/],
    ['an ENTITY alone', b64('<r><!ENTITY e SYSTEM "file:///etc/passwd"></r>'), /DOCTYPE or entities/],
    ['a lower-case doctype', b64('<!doctype r><r/>'), /DOCTYPE/],
    ['a comment', b64('<r><NameID>a@evil.com<!---->.example.com</NameID></r>'), /comments/],
    ['a processing instruction', b64('<r><?evil x?></r>'), /processing instructions/],
    ['a second XML declaration', b64('<?xml version="1.0"?><r><?xml version="1.0"?></r>'), /processing instructions/],
    ['too large a body', 'A'.repeat(Math.ceil((MAX_RESPONSE_BYTES * 4) / 3) + 8), /too large/],
  ])('refuses %s', (_name, value, why) => {
    expect(reason(() => decodeResponse(value))).toMatch(why);
  });
});

const ACS = 'https://sp.example/auth/sso';
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

function assertion(over: { issuer?: string; recipient?: string; inResponseTo?: string | null; conditions?: number; method?: string } = {}) {
  const data: Record<string, string> = { Recipient: over.recipient ?? ACS, NotOnOrAfter: iso(now + 120_000) };
  if (over.inResponseTo !== null) data.InResponseTo = over.inResponseTo ?? '_req';
  return {
    Assertion: {
      $: { ID: '_a1', IssueInstant: iso(now) },
      Issuer: [{ _: over.issuer ?? 'https://idp' }],
      Subject: [
        {
          SubjectConfirmation: [
            { $: { Method: over.method ?? 'urn:oasis:names:tc:SAML:2.0:cm:bearer' }, SubjectConfirmationData: [{ $: data }] },
          ],
        },
      ],
      Conditions: Array.from({ length: over.conditions ?? 1 }, () => ({
        $: { NotBefore: iso(now - 5_000), NotOnOrAfter: iso(now + 300_000) },
      })),
    },
  };
}

const expect_ = { acsUrl: ACS, idpIssuer: 'https://idp', maxAgeMs: 600_000 };

describe('checkSignedAssertion', () => {
  it('answers the id, the request answered and the earliest expiry', () => {
    expect(checkSignedAssertion(assertion(), expect_)).toEqual({ id: '_a1', inResponseTo: '_req', notOnOrAfter: now + 120_000 });
  });

  it('bounds the expiry by the maximum age after issue', () => {
    expect(checkSignedAssertion(assertion(), { ...expect_, maxAgeMs: 60_000 }).notOnOrAfter).toBe(now + 60_000);
  });

  it('checks the issuer only when one is configured', () => {
    expect(reason(() => checkSignedAssertion(assertion({ issuer: 'https://other' }), expect_))).toMatch(/issuer/);
    expect(checkSignedAssertion(assertion({ issuer: 'https://other' }), { ...expect_, idpIssuer: null }).id).toBe('_a1');
  });

  it.each([
    ['no assertion', null, /no signed assertion/],
    ['another Recipient', assertion({ recipient: 'https://elsewhere/auth/sso' }), /Recipient/],
    ['a confirmation other than bearer', assertion({ method: 'urn:oasis:names:tc:SAML:2.0:cm:holder-of-key' }), /Recipient/],
    ['no InResponseTo', assertion({ inResponseTo: null }), /InResponseTo/],
    ['two Conditions', assertion({ conditions: 2 }), /Conditions/],
    ['no Conditions', assertion({ conditions: 0 }), /Conditions/],
  ])('refuses %s', (_name, parsed, why) => {
    expect(reason(() => checkSignedAssertion(parsed, expect_))).toMatch(why);
  });
});

describe('checkDestination', () => {
  it('accepts our URL or no Destination, refuses another', () => {
    expect(() => checkDestination(`<samlp:Response ID="_1" Destination="${ACS}">`, ACS)).not.toThrow();
    expect(() => checkDestination(`<Response ID='_1'>`, ACS)).not.toThrow();
    expect(reason(() => checkDestination(`<samlp:Response Destination='https://elsewhere'>`, ACS))).toMatch(/Destination/);
    expect(reason(() => checkDestination('<samlp:LogoutResponse/>', ACS))).toMatch(/not a SAML Response/);
  });
});
