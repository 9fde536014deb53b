import { SAML, ValidateInResponseTo } from '@node-saml/passport-saml';
import { CLAIMS, createIdp, encode, signedResponse } from '../../../../test/support/saml-idp';

/**
 * What the library under SamlSsoService reads, without our pre-parse refusals: only what the signature covers, so
 * a comment slipped into a signed value (`user@evil.com<!---->.example.com`) yields the whole signed value, never
 * the text before the comment. SamlSsoService refuses comments outright anyway; this pins the second line of defence.
 */
describe('node-saml reads the signed parts only', () => {
  it('a comment inside the NameID and the email does not truncate them', async () => {
    const idp = await createIdp();
    const acsUrl = 'https://sp.example/auth/sso';
    const xml = signedResponse(idp, { inResponseTo: '_r', acsUrl, audience: 'sp', email: 'user@evil.com.example.com' }).replaceAll(
      'user@evil.com.example.com',
      'user@evil.com<!---->.example.com',
    );
    const saml = new SAML({
      idpCert: idp.cert,
      issuer: 'sp',
      audience: 'sp',
      callbackUrl: acsUrl,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.never,
    });
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: encode(xml) });
    expect(profile?.nameID).toBe('user@evil.com.example.com');
    expect((profile?.attributes as Record<string, unknown> | undefined)?.[`${CLAIMS}/emailaddress`]).toBe('user@evil.com.example.com');
  });
});
