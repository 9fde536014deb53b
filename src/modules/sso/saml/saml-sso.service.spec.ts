import type { ExecutionContext } from '@nestjs/common';
import { createIdp, newId, readAuthnRequest, signedResponse, encode, TestIdp } from '../../../../test/support/saml-idp';
import type { AppLogger } from '../../../common/logging/app-logger';
import type { SettingsService } from '../../settings/settings.service';
import { SAML_REJECTED_MESSAGE, SamlNotConfigured, SamlRejected } from './saml-rejected.error';
import { SamlSsoAuthGuard } from './saml-sso.guard';
import { SamlSsoService } from './saml-sso.service';
import type { SamlStateRepository } from './saml-state.repository';

const ACS = 'https://bi.example/auth/sso';

function harness(idp: TestIdp, over: Record<string, unknown> = {}) {
  const values: Record<string, unknown> = {
    'saml-enabled': true,
    'site-url': 'https://bi.example',
    'saml-identity-provider-uri': idp.ssoUrl,
    'saml-identity-provider-certificate': idp.cert,
    'saml-identity-provider-issuer': idp.issuer,
    'saml-application-name': 'bi',
    'saml-attribute-email': 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
    'saml-attribute-firstname': 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname',
    'saml-attribute-lastname': 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
    'saml-attribute-group': 'member_of',
    ...over,
  };
  const settings = { get: jest.fn(async (k: string) => values[k] ?? null) } as unknown as SettingsService;
  const repo = {
    saveRequest: jest.fn(async () => undefined),
    findRequest: jest.fn(async () => ({ returnTo: '/dashboard/2' })),
    consumeRequest: jest.fn(async () => true),
    markSeen: jest.fn(async () => true),
    prune: jest.fn(async () => undefined),
  };
  const logger = { warning: jest.fn() };
  const service = new SamlSsoService(settings, repo as unknown as SamlStateRepository, logger as unknown as AppLogger);
  return { service, repo, logger };
}

const form = (idp: TestIdp, inResponseTo = newId(), extra = {}) => ({
  SAMLResponse: encode(
    signedResponse(idp, { inResponseTo, acsUrl: ACS, audience: 'bi', email: 'ann@example.com', groups: ['a', 'b'], ...extra }),
  ),
});

describe('SamlSsoService', () => {
  let idp: TestIdp;
  beforeAll(async () => {
    idp = await createIdp();
  });

  it('redirect() stores the request id with the return path for ten minutes, and puts the path in RelayState', async () => {
    const { service, repo } = harness(idp);
    const before = Date.now();
    const url = await service.redirect('/question/3');
    const req = readAuthnRequest(url);
    expect(req.relayState).toBe('/question/3');
    expect(repo.prune).toHaveBeenCalled();
    const [id, returnTo, expiresAt] = repo.saveRequest.mock.calls[0] as unknown as [string, string, number];
    expect([id, returnTo]).toEqual([req.id, '/question/3']);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 10 * 60_000);
  });

  it('redirect() refuses while SAML is off or incomplete', async () => {
    await expect(harness(idp, { 'saml-enabled': false }).service.redirect('/')).rejects.toBeInstanceOf(SamlNotConfigured);
    await expect(harness(idp, { 'site-url': null }).service.redirect('/')).rejects.toBeInstanceOf(SamlNotConfigured);
  });

  it('consume() answers the login from the signed assertion and the return path of the request it answers', async () => {
    const { service, repo } = harness(idp);
    const id = newId();
    const login = await service.consume(form(idp, id));
    expect(login).toEqual({
      email: 'ann@example.com',
      firstName: null,
      lastName: null,
      groups: ['a', 'b'],
      attributes: {},
      returnTo: '/dashboard/2',
    });
    expect(repo.consumeRequest).toHaveBeenCalledWith(id, expect.any(Number));
  });

  it('a replay is refused before the request is consumed, and the reason is logged, not answered', async () => {
    const { service, repo, logger } = harness(idp);
    repo.markSeen.mockResolvedValueOnce(false);
    const err = await service.consume(form(idp)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SamlRejected);
    expect((err as SamlRejected).body()).toBe(SAML_REJECTED_MESSAGE);
    expect(repo.consumeRequest).not.toHaveBeenCalled();
    expect(logger.warning).toHaveBeenCalledWith(expect.stringMatching(/replay/), expect.anything());
  });

  it('a request consumed meanwhile by another instance is refused', async () => {
    const { service, repo } = harness(idp);
    repo.consumeRequest.mockResolvedValueOnce(false);
    await expect(service.consume(form(idp))).rejects.toBeInstanceOf(SamlRejected);
  });

  it('an unknown request (node-saml asks the app DB) is refused', async () => {
    const { service, repo } = harness(idp);
    repo.findRequest.mockResolvedValue(null as never);
    await expect(service.consume(form(idp))).rejects.toBeInstanceOf(SamlRejected);
    expect(repo.markSeen).not.toHaveBeenCalled();
  });

  it('falls back to an email NameID when the email attribute is missing, and refuses when neither is an email', async () => {
    const noAttr = harness(idp, { 'saml-attribute-email': 'mail' });
    expect((await noAttr.service.consume(form(idp))).email).toBe('ann@example.com');
    const none = harness(idp, { 'saml-attribute-email': 'mail' });
    await expect(none.service.consume(form(idp, newId(), { nameId: 'opaque-id-123' }))).rejects.toBeInstanceOf(SamlRejected);
  });
});

describe('SamlSsoAuthGuard', () => {
  const ctx = (req: Record<string, unknown>) =>
    ({ switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }) }) as unknown as ExecutionContext;

  it('turns a refusal before passport runs into the 401 of the service, leaving nothing on the request', async () => {
    const refused = new SamlRejected('bad');
    const service = { prepare: jest.fn(async () => Promise.reject(new Error('not base64'))), refusal: jest.fn(() => refused) };
    const guard = new SamlSsoAuthGuard(service as unknown as SamlSsoService);
    const req: Record<string, unknown> = { body: { SAMLResponse: '!' } };
    await expect(guard.canActivate(ctx(req))).rejects.toBe(refused);
    expect(service.refusal).toHaveBeenCalledWith(expect.any(Error));
    expect(req.samlSso).toBeUndefined();
  });

  it('refuses when the strategy answers no login', () => {
    const guard = new SamlSsoAuthGuard({} as SamlSsoService);
    expect(() => guard.handleRequest(null, false)).toThrow(SamlRejected);
    expect(guard.handleRequest(null, { email: 'a@b.c' })).toEqual({ email: 'a@b.c' });
  });
});
