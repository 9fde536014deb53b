import { createPublicKey, verify } from 'node:crypto';
import { Body, Controller, Get, HttpCode, INestApplication, Module, Post, Query, Req, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import cookieParser from 'cookie-parser';
import request from 'supertest';
import { AppModule } from '../../src/app.module';
import { Access } from '../../src/common/auth/access.decorator';
import { AcceptsForm } from '../../src/common/http/accepts-form';
import { AppLogger } from '../../src/common/logging/app-logger';
import { loadConfig } from '../../src/config/app-config';
import { SettingsService } from '../../src/modules/settings/settings.service';
import { SAML_REJECTED_MESSAGE } from '../../src/modules/sso/saml/saml-rejected.error';
import { SamlSsoAuthGuard } from '../../src/modules/sso/saml/saml-sso.guard';
import { SamlSsoService } from '../../src/modules/sso/saml/saml-sso.service';
import { SamlModule } from '../../src/modules/sso/saml/saml.module';
import { freshAppDb, TestDb } from '../support/app-db';
import { until } from '../support/until';
import {
  assertionXml,
  createIdp,
  encode,
  newId,
  readAuthnRequest,
  ResponseOptions,
  responseXml,
  sign,
  signedResponse,
  TestIdp,
} from '../support/saml-idp';

/**
 * The SAML service provider against a real identity provider made here (its own key pair and certificate, signing
 * real responses with xml-crypto), over HTTP. A small harness controller drives SamlSsoService the way the SSO
 * controller does (redirect for GET, consume for the posted form), so the service is tested on its own.
 */
@Controller('test/saml')
class SamlHarnessController {
  constructor(private readonly saml: SamlSsoService) {}

  @Get('start')
  @Access('public')
  async start(@Query('return_to') returnTo: string) {
    return { url: await this.saml.redirect(returnTo) };
  }

  @Post('acs')
  @Access('public')
  @AcceptsForm()
  @HttpCode(200)
  consume(@Body() form: Record<string, string>) {
    return this.saml.consume(form);
  }

  /** The same through the `sso-saml` passport strategy, as an SSO controller behind SamlSsoAuthGuard gets it. */
  @Post('acs-passport')
  @Access('public')
  @AcceptsForm()
  @UseGuards(SamlSsoAuthGuard)
  @HttpCode(200)
  consumeWithPassport(@Req() req: { ssoSamlLogin?: unknown }) {
    return req.ssoSamlLogin;
  }
}

interface Instance {
  app: INestApplication;
  logger: AppLogger;
  http: () => ReturnType<typeof request>;
  settings: SettingsService;
}

const SITE = 'https://analytics.example.test';
const ACS = `${SITE}/auth/sso`;
const APP_NAME = 'analytics-sp';

async function start(db: TestDb): Promise<Instance> {
  const config = loadConfig({ LOG_TARGET: 'memory', LOG_LEVEL: 'info', LOAD_SAMPLE_DATABASE: 'false', SYNC_CHECK_SECONDS: '0', ...db.env });
  const logger = new AppLogger(config.logLevel, config.logTarget);
  @Module({ imports: [AppModule.forRoot(config, logger), SamlModule], controllers: [SamlHarnessController] })
  class HarnessModule {}
  const app = await NestFactory.create(HarnessModule, { logger, abortOnError: false });
  app.use(cookieParser());
  await app.init();
  const server = app.getHttpServer();
  return { app, logger, http: () => request(server), settings: app.get(SettingsService) };
}

describe('SAML service provider (e2e)', () => {
  let db: TestDb;
  let a: Instance;
  let b: Instance;
  let idp: TestIdp;
  let otherIdp: TestIdp;

  beforeAll(async () => {
    [idp, otherIdp] = await Promise.all([createIdp(), createIdp('https://other-idp.example.test')]);
    db = await freshAppDb();
    a = await start(db);
    b = await start(db); // a second instance on the same app DB
    await a.settings.setMany({
      'site-url': SITE,
      'saml-enabled': true,
      'saml-identity-provider-uri': idp.ssoUrl,
      'saml-identity-provider-certificate': idp.cert,
      'saml-identity-provider-issuer': idp.issuer,
      'saml-application-name': APP_NAME,
    });
  });

  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await db?.drop();
  });

  /** GET the redirect as a browser would, and read the AuthnRequest the IdP receives. */
  async function authnRequest(on: Instance = a, returnTo = '/dashboard/1') {
    const res = await on.http().get('/test/saml/start').query({ return_to: returnTo }).expect(200);
    return { url: res.body.url as string, ...readAuthnRequest(res.body.url) };
  }

  function opts(inResponseTo: string, extra: Partial<ResponseOptions> = {}): ResponseOptions {
    return {
      inResponseTo,
      acsUrl: ACS,
      audience: APP_NAME,
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      groups: ['analysts', 'staff'],
      ...extra,
    };
  }

  let acsPath = '/test/saml/acs';
  const post = (on: Instance, xml: string, relayState = '/dashboard/1') =>
    on
      .http()
      .post(acsPath)
      .type('form')
      .send({ SAMLResponse: encode(xml), RelayState: relayState });

  async function expectRefused(on: Instance, xml: string, reason: RegExp) {
    const res = await post(on, xml);
    expect(res.status).toBe(401);
    expect(res.text).toBe(SAML_REJECTED_MESSAGE);
    const logged = on.logger.buffer.recent().find((l) => l.msg.startsWith('SAML response refused'));
    expect(logged?.msg).toMatch(reason);
  }

  it('serves SP metadata publicly, with our entity id and assertion consumer', async () => {
    const res = await a.http().get('/api/saml/metadata').expect(200);
    expect(res.headers['content-type']).toMatch(/samlmetadata\+xml/);
    expect(res.text).toContain(`entityID="${APP_NAME}"`);
    expect(res.text).toContain(`Location="${ACS}"`);
  });

  it('redirects to the IdP with an AuthnRequest and RelayState carrying the return path', async () => {
    const req = await authnRequest(a, '/question/7');
    expect(req.url.startsWith(`${idp.ssoUrl}?`)).toBe(true);
    expect(req.relayState).toBe('/question/7');
    expect(req.xml).toContain(`AssertionConsumerServiceURL="${ACS}"`);
    expect(req.xml).toContain(`Destination="${idp.ssoUrl}"`);
    expect(req.xml).toMatch(new RegExp(`<saml:Issuer[^>]*>${APP_NAME}</saml:Issuer>`));
    expect(req.params.get('Signature')).toBeNull();
  });

  it('signs the AuthnRequest when SP keys are set (verifiable with the SP certificate)', async () => {
    const sp = await createIdp('sp');
    await a.settings.setMany({ 'saml-sp-certificate': sp.cert, 'saml-sp-private-key': sp.key });
    try {
      const req = await authnRequest(a);
      expect(req.params.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      const query = req.url.slice(req.url.indexOf('?') + 1);
      const signed = query.slice(0, query.indexOf('&Signature='));
      expect(
        verify('sha256', Buffer.from(signed), createPublicKey(sp.cert), Buffer.from(req.params.get('Signature') as string, 'base64')),
      ).toBe(true);
      const meta = await a.http().get('/api/saml/metadata').expect(200);
      expect(meta.text).toContain('<ds:X509Certificate>');
    } finally {
      await a.settings.setMany({ 'saml-sp-certificate': null, 'saml-sp-private-key': null });
    }
  });

  describe.each([
    ['SamlSsoService.consume', '/test/saml/acs'],
    ['the sso-saml passport strategy', '/test/saml/acs-passport'],
  ])('the assertion consumer through %s', (_name, path) => {
    beforeAll(() => {
      acsPath = path;
    });

    it('accepts a response whose assertion is signed: user, names, groups, other attributes, return path', async () => {
      const req = await authnRequest(a, '/collection/3');
      const res = await post(a, signedResponse(idp, opts(req.id, { extra: { department: 'R&D' } })), '/collection/3').expect(200);
      expect(res.body).toEqual({
        email: 'ada@example.com',
        firstName: 'Ada',
        lastName: 'Lovelace',
        groups: ['analysts', 'staff'],
        attributes: { department: 'R&D' },
        returnTo: '/collection/3',
      });
    });

    it('accepts a response signed as a whole, answered on another instance than the one that sent the request', async () => {
      const req = await authnRequest(a);
      const res = await post(b, signedResponse(idp, opts(req.id), 'response')).expect(200);
      expect(res.body.email).toBe('ada@example.com');
    });

    it('takes the return path from the request it answers, not from the posted RelayState', async () => {
      const req = await authnRequest(a, '/dashboard/9');
      const res = await post(a, signedResponse(idp, opts(req.id)), 'https://evil.example/').expect(200);
      expect(res.body.returnTo).toBe('/dashboard/9');
    });

    it('refuses an unsigned response', async () => {
      const req = await authnRequest();
      await expectRefused(a, signedResponse(idp, opts(req.id), 'none'), /signature/i);
    });

    it('refuses a signature over another element (wrapping: the signed assertion moved aside, an unsigned one read)', async () => {
      const req = await authnRequest();
      const genuine = sign(assertionXml(idp, opts(req.id, { email: 'mallory@example.com' })), 'Assertion', idp.key, idp.cert);
      const evil = assertionXml(idp, opts(req.id, { email: 'admin@example.com' }));
      const wrapped = responseXml(idp, opts(req.id), `${evil}`).replace(
        '<samlp:Status>',
        `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`,
      );
      await expectRefused(a, wrapped, /signature/i);
    });

    it('refuses a signature copied into a forged assertion (it references the genuine one)', async () => {
      const req = await authnRequest();
      const genuine = sign(assertionXml(idp, opts(req.id, { email: 'mallory@example.com' })), 'Assertion', idp.key, idp.cert);
      const signature = /<ds:Signature[\s\S]*<\/ds:Signature>/.exec(genuine)?.[0] as string;
      const evil = assertionXml(idp, opts(req.id, { email: 'admin@example.com' })).replace('</saml:Issuer>', `</saml:Issuer>${signature}`);
      const xml = responseXml(idp, opts(req.id), evil).replace(
        '<samlp:Status>',
        `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`,
      );
      await expectRefused(a, xml, /signature|referenced|ID/i);
    });

    it('refuses a comment inside the NameID and the email (the signature, blind to comments, still holds)', async () => {
      const req = await authnRequest();
      const xml = signedResponse(idp, opts(req.id, { email: 'user@evil.com.example.com' })).replaceAll(
        'user@evil.com.example.com',
        'user@evil.com<!---->.example.com',
      );
      await expectRefused(a, xml, /comment/i);
    });

    it('refuses an expired assertion', async () => {
      const req = await authnRequest();
      const xml = signedResponse(idp, opts(req.id, { issuedAt: new Date(Date.now() - 20 * 60_000), validForMs: 5 * 60_000 }));
      // node-saml checks the subject confirmation's window first: no confirmation still valid.
      await expectRefused(a, xml, /expired|No valid subject confirmation/i);
    });

    it('refuses an assertion valid for longer than ten minutes after it was issued, once they are past', async () => {
      const req = await authnRequest();
      const xml = signedResponse(idp, opts(req.id, { issuedAt: new Date(Date.now() - 11 * 60_000), validForMs: 60 * 60_000 }));
      await expectRefused(a, xml, /expired|too old|No valid subject confirmation/i);
    });

    it('refuses a wrong audience', async () => {
      const req = await authnRequest();
      await expectRefused(a, signedResponse(idp, opts(req.id, { audience: 'some-other-app' })), /audience/i);
    });

    it('refuses a wrong recipient or destination', async () => {
      const req = await authnRequest();
      await expectRefused(
        a,
        signedResponse(idp, opts(req.id, { acsUrl: 'https://elsewhere.example.test/auth/sso' })),
        /Destination|Recipient/,
      );
    });

    it('refuses an assertion from another issuer', async () => {
      const req = await authnRequest();
      await expectRefused(a, signedResponse(idp, opts(req.id, { issuer: 'https://not-the-idp.example.test' })), /issuer/i);
    });

    it('refuses a response answering no request of ours (unsolicited or forged InResponseTo)', async () => {
      await expectRefused(a, signedResponse(idp, opts(newId())), /InResponseTo/);
    });

    it('refuses a replayed response, on the same instance and on another one sharing the app DB', async () => {
      const req = await authnRequest();
      const xml = signedResponse(idp, opts(req.id));
      await post(a, xml).expect(200);
      // The request it answered is gone, which refuses it first; the next test shows the assertion id alone does.
      await expectRefused(a, xml, /replay|InResponseTo/);
      await expectRefused(b, xml, /replay|InResponseTo/);
    });

    it('refuses a replay even when the request it answered were still pending (the assertion id is what counts)', async () => {
      const req = await authnRequest();
      const assertionId = newId();
      await post(a, signedResponse(idp, opts(req.id, { assertionId }))).expect(200);
      const again = await authnRequest(b);
      await expectRefused(b, signedResponse(idp, opts(again.id, { assertionId })), /replay/);
    });

    it('refuses XML entities (DOCTYPE with ENTITY declarations)', async () => {
      const req = await authnRequest();
      const xml = signedResponse(idp, opts(req.id));
      await expectRefused(a, `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "ada@example.com">]>${xml}`, /DOCTYPE/);
    });

    it('refuses a response signed with another key than the IdP certificate', async () => {
      const req = await authnRequest();
      await expectRefused(a, signedResponse(otherIdp, opts(req.id, { issuer: idp.issuer })), /signature/i);
    });

    it('refuses what is not a SAML response at all', async () => {
      const res = await a.http().post(acsPath).type('form').send({ SAMLResponse: 'not base64 !!' });
      expect(res.status).toBe(401);
      expect(res.text).toBe(SAML_REJECTED_MESSAGE);
    });
  });

  it('reads the settings at request time: a new IdP certificate set on one instance applies on the other', async () => {
    await a.settings.setMany({ 'saml-identity-provider-certificate': otherIdp.cert, 'saml-identity-provider-issuer': otherIdp.issuer });
    try {
      await until(async () => {
        const req = await authnRequest(b);
        return (await post(b, signedResponse(otherIdp, opts(req.id)))).status === 200;
      });
    } finally {
      await a.settings.setMany({ 'saml-identity-provider-certificate': idp.cert, 'saml-identity-provider-issuer': idp.issuer });
    }
  });

  it('refuses to start a login while SAML is off', async () => {
    await a.settings.setMany({ 'saml-enabled': false });
    try {
      const res = await a.http().get('/test/saml/start').query({ return_to: '/' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('SAML has not been enabled and/or configured');
    } finally {
      await a.settings.setMany({ 'saml-enabled': true });
    }
  });
});
