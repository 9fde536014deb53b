import type { ExecutionContext } from '@nestjs/common';
import passport from 'passport';
import { createIdp, encode, newId, signedResponse, TestIdp } from '../../../../test/support/saml-idp';
import type { AppLogger } from '../../../common/logging/app-logger';
import type { SettingsService } from '../../settings/settings.service';
import { SAML_REJECTED_MESSAGE, SamlRejected } from './saml-rejected.error';
import { SamlSsoAuthGuard } from './saml-sso.guard';
import { SamlSsoService } from './saml-sso.service';
import { SAML_SSO_STRATEGY } from './saml-sso.strategy';
import type { SamlStateRepository } from './saml-state.repository';

const ACS = 'https://bi.example/auth/sso';

/** The guard over a real SamlSsoService whose settings trust `idp`, its app-DB state mocked. */
function guardFor(idp: TestIdp) {
  const values: Record<string, unknown> = {
    'saml-enabled': true,
    'site-url': 'https://bi.example',
    'saml-identity-provider-uri': idp.ssoUrl,
    'saml-identity-provider-certificate': idp.cert,
    'saml-identity-provider-issuer': idp.issuer,
    'saml-application-name': 'bi',
    'saml-attribute-email': 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  };
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) } as unknown as SettingsService;
  const repo = {
    saveRequest: jest.fn(async () => undefined),
    findRequest: jest.fn(async () => ({ returnTo: '/question/4' })),
    consumeRequest: jest.fn(async () => true),
    markSeen: jest.fn(async () => true),
    prune: jest.fn(async () => undefined),
  };
  const logger = { warning: jest.fn() };
  const service = new SamlSsoService(settings, repo as unknown as SamlStateRepository, logger as unknown as AppLogger);
  return { guard: new SamlSsoAuthGuard(service), repo, logger };
}

const ctx = (req: object) => ({ switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }) }) as unknown as ExecutionContext;
const posted = (xml: string, query: Record<string, string> = {}): Record<string, unknown> => ({
  method: 'POST',
  url: '/auth/sso',
  query,
  headers: {},
  body: { SAMLResponse: encode(xml) },
});

async function refused(guard: SamlSsoAuthGuard, req: Record<string, unknown>): Promise<SamlRejected> {
  const err = await guard.canActivate(ctx(req)).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SamlRejected);
  expect((err as SamlRejected).body()).toBe(SAML_REJECTED_MESSAGE);
  expect(req.ssoSamlLogin).toBeUndefined();
  return err as SamlRejected;
}

describe('SamlSsoStrategy, run by SamlSsoAuthGuard', () => {
  let idp: TestIdp;
  let otherIdp: TestIdp;
  beforeAll(async () => {
    [idp, otherIdp] = await Promise.all([createIdp(), createIdp('https://other-idp.example.test')]);
  });

  const response = (signer: TestIdp, inResponseTo = newId(), signed: 'assertion' | 'none' = 'assertion') =>
    signedResponse(signer, { inResponseTo, acsUrl: ACS, audience: 'bi', email: 'ann@example.com', issuer: idp.issuer }, signed);

  it('hands the login of a signed response to the controller, its request consumed once', async () => {
    const { guard, repo } = guardFor(idp);
    const id = newId();
    const req = posted(response(idp, id));
    await expect(guard.canActivate(ctx(req))).resolves.toBe(true);
    expect(req.ssoSamlLogin).toMatchObject({ email: 'ann@example.com', returnTo: '/question/4' });
    expect(repo.consumeRequest).toHaveBeenCalledWith(id, expect.any(Number));
  });

  it('refuses an unsigned response, or one signed by another key, with the reason in the log only', async () => {
    const { guard, logger, repo } = guardFor(idp);
    expect((await refused(guard, posted(response(idp, newId(), 'none')))).reason).toMatch(/signature/i);
    expect((await refused(guard, posted(response(otherIdp)))).reason).toMatch(/signature/i);
    expect(logger.warning).toHaveBeenCalledWith(expect.stringMatching(/^SAML response refused/), expect.anything());
    expect(repo.markSeen).not.toHaveBeenCalled();
  });

  it('reads the posted form only: a SAML message in the query string is refused', async () => {
    const { guard } = guardFor(idp);
    const good = response(idp);
    expect((await refused(guard, posted(good, { SAMLResponse: encode(good) }))).reason).toMatch(/query string/);
    expect((await refused(guard, posted(good, { SAMLRequest: 'x' }))).reason).toMatch(/query string/);
  });

  it('refuses what no XML parser should see, before node-saml runs (a DOCTYPE)', async () => {
    const { guard } = guardFor(idp);
    const xml = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "x">]>${response(idp)}`;
    expect((await refused(guard, posted(xml))).reason).toMatch(/DOCTYPE/);
  });

  it("is registered nowhere in passport's process-wide registry", () => {
    guardFor(idp);
    expect((passport as unknown as { _strategy(name: string): unknown })._strategy(SAML_SSO_STRATEGY)).toBeUndefined();
  });
});
