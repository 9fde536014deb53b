import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CacheProvider, Profile, SAML, SamlConfig, ValidateInResponseTo } from '@node-saml/passport-saml';
import { AppLogger } from '../../../common/logging/app-logger';
import { SettingsService } from '../../settings';
import { checkDestination, checkSignedAssertion, decodeResponse } from './saml-response-checks';
import { SamlNotConfigured, SamlRejected } from './saml-rejected.error';
import { certificatePem, certificatesPem, readSamlSettings, SamlSettings, samlUsable, UsableSamlSettings } from './saml-settings';
import { SamlStateRepository } from './saml-state.repository';

/** How long an AuthnRequest may wait for its answer, and how old an assertion may be. */
const REQUEST_TTL_MS = 10 * 60_000;
const MAX_ASSERTION_AGE_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 30_000;

/** What a validated response says about the user; read from the signed assertion only. */
export interface SamlLogin {
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** Values of `saml-attribute-group` (mapping them to groups is the caller's). */
  groups: string[];
  /** The assertion's other attributes (not email, names or groups), for the user's `jwt_attributes`. */
  attributes: Record<string, string | string[]>;
  /** The return path given to `redirect()` for the request this response answers; validate it before use. */
  returnTo: string | null;
}

/** A posted response checked up to its signature: node-saml's options, and what to do with the profile it answers. */
export interface PreparedSamlResponse {
  encoded: string;
  options: SamlConfig;
  accept: (profile: Profile | null) => Promise<SamlLogin>;
}

const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

/**
 * The SAML service provider, configured per call from the settings (no restart after a change), with its state
 * (pending requests, accepted assertions) in the app DB so any instance can answer and none accepts a replay.
 * `GET /auth/sso` sends the browser on with `redirect()`; a POSTed `SAMLResponse` goes through SamlSsoAuthGuard, whose
 * strategy validates it with `prepare()` and the `accept` that answers.
 */
@Injectable()
export class SamlSsoService {
  constructor(
    private readonly settings: SettingsService,
    private readonly state: SamlStateRepository,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {}

  /** Whether SAML is on and configured enough to log in with. */
  async usable(): Promise<boolean> {
    return samlUsable(await readSamlSettings(this.settings));
  }

  /**
   * The identity provider's URL with an AuthnRequest (HTTP-Redirect binding, signed when the SP key and certificate
   * are set) and `RelayState` = `returnTo`. The request id is stored in the app DB with `returnTo` for ten minutes.
   * Throws SamlNotConfigured (400) when SAML is off or incomplete.
   */
  async redirect(returnTo: string): Promise<string> {
    const s = await readSamlSettings(this.settings);
    if (!samlUsable(s)) throw new SamlNotConfigured();
    const now = Date.now();
    await this.state.prune(now);
    const saml = new SAML(this.config(s, this.requestCache(returnTo)));
    return saml.getAuthorizeUrlAsync(returnTo, undefined, {});
  }

  /**
   * Validates the form an identity provider POSTs (`SAMLResponse`, `RelayState`): signature over the response or the
   * assertion with the configured IdP certificate, issuer, audience (`saml-application-name`), Destination and
   * Recipient (`{site-url}/auth/sso`), validity window (30 s skew, at most ten minutes after issue), InResponseTo
   * naming a pending request of ours (consumed once), and no assertion accepted twice by any instance.
   * Throws SamlRejected (401, fixed message; the reason goes to the log) for anything else. The strategy's two halves in
   * one call, without passport: the same checks, for callers that hold the form.
   */
  async consume(form: Record<string, string>): Promise<SamlLogin> {
    try {
      const prepared = await this.prepare(form);
      const { profile } = await new SAML(prepared.options).validatePostResponseAsync({ SAMLResponse: prepared.encoded });
      return await prepared.accept(profile);
    } catch (err) {
      throw this.refusal(err);
    }
  }

  /**
   * The first half of consume(), for SamlSsoStrategy: the settings in force, the checks made before
   * any XML parser runs (size, base64, no DOCTYPE/entities, comments or processing instructions; Destination), the
   * node-saml options, and `accept` for the profile node-saml answers once the signature holds.
   */
  async prepare(form: Record<string, unknown> | undefined): Promise<PreparedSamlResponse> {
    const s = await readSamlSettings(this.settings);
    if (!samlUsable(s)) throw new SamlNotConfigured();
    const encoded = decodeResponse(form?.SAMLResponse);
    checkDestination(Buffer.from(encoded, 'base64').toString('utf8'), s.acsUrl);
    return { encoded, options: this.config(s, this.requestCache(null)), accept: (profile) => this.accept(profile, s) };
  }

  /** Any failure of a response as the 401 to answer, its reason logged (SamlNotConfigured stays a 400). */
  refusal(err: unknown): Error {
    if (err instanceof SamlNotConfigured) return err;
    const reason = err instanceof SamlRejected ? err.reason : err instanceof Error ? err.message : String(err);
    // The reason names no secret (a check and the values the IdP sent); it goes to the log, never to the client.
    this.logger.warning(`SAML response refused: ${reason}`, { reason });
    return err instanceof SamlRejected ? err : new SamlRejected(reason);
  }

  /** Our service-provider metadata (entity id, assertion consumer, signing certificate when set). */
  async metadata(): Promise<string> {
    const s = await readSamlSettings(this.settings);
    if (!s.acsUrl) throw new SamlNotConfigured();
    // The IdP certificate is not part of our metadata; SAML insists on one being configured.
    const saml = new SAML(this.config({ ...s, acsUrl: s.acsUrl, idpCertificate: s.idpCertificate ?? 'unused' }, this.requestCache(null)));
    return saml.generateServiceProviderMetadata(null, s.spCertificate ? certificatePem(s.spCertificate) : null);
  }

  /** What node-saml leaves to us once the signature holds: issuer, Recipient, InResponseTo, replay; then the user. */
  private async accept(profile: Profile | null, s: UsableSamlSettings): Promise<SamlLogin> {
    if (!profile) throw new SamlRejected('response carries no assertion');
    const facts = checkSignedAssertion(profile.getAssertion?.(), {
      acsUrl: s.acsUrl,
      idpIssuer: s.idpIssuer,
      maxAgeMs: MAX_ASSERTION_AGE_MS,
    });
    const now = Date.now();
    if (!(await this.state.markSeen(facts.id, facts.notOnOrAfter + CLOCK_SKEW_MS))) {
      throw new SamlRejected(`assertion ${facts.id} was already used (replay)`);
    }
    const pending = await this.state.findRequest(facts.inResponseTo, now);
    if (!pending || !(await this.state.consumeRequest(facts.inResponseTo, now))) {
      throw new SamlRejected('InResponseTo names no pending request (unknown, expired or already answered)');
    }
    return { ...this.user(profile, s), returnTo: pending.returnTo };
  }

  private user(profile: Profile, s: SamlSettings): Omit<SamlLogin, 'returnTo'> {
    const attrs = (profile.attributes ?? {}) as Record<string, unknown>;
    const one = (name: string): string | null => {
      const v = attrs[name];
      const first = Array.isArray(v) ? v[0] : v;
      return typeof first === 'string' && first.trim() ? first.trim() : null;
    };
    const nameId = typeof profile.nameID === 'string' ? profile.nameID.trim() : '';
    const email = one(s.attributeEmail) ?? (EMAIL.test(nameId) ? nameId : null);
    if (!email || !EMAIL.test(email)) throw new SamlRejected('assertion carries no valid email (attribute or NameID)');
    const rawGroups = attrs[s.attributeGroup];
    const groups = (Array.isArray(rawGroups) ? rawGroups : [rawGroups]).filter((g): g is string => typeof g === 'string' && g !== '');
    const mapped = new Set([s.attributeEmail, s.attributeFirstName, s.attributeLastName, s.attributeGroup]);
    const attributes: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(attrs)) {
      if (mapped.has(k)) continue;
      if (typeof v === 'string') attributes[k] = v;
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) attributes[k] = v as string[];
    }
    return { email, firstName: one(s.attributeFirstName), lastName: one(s.attributeLastName), groups, attributes };
  }

  private config(s: UsableSamlSettings, cacheProvider: CacheProvider): SamlConfig {
    const signing = s.spPrivateKey && s.spCertificate ? { privateKey: s.spPrivateKey, publicCert: certificatePem(s.spCertificate) } : {};
    return {
      entryPoint: s.idpUri ?? undefined,
      idpCert: certificatesPem(s.idpCertificate),
      idpIssuer: s.idpIssuer ?? undefined,
      issuer: s.applicationName,
      audience: s.applicationName,
      callbackUrl: s.acsUrl,
      ...signing,
      signatureAlgorithm: 'sha256',
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
      // Either the response or the assertion must be signed; node-saml then reads only what the signature covers.
      wantAssertionsSigned: false,
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      maxAssertionAgeMs: MAX_ASSERTION_AGE_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: REQUEST_TTL_MS,
      disableRequestedAuthnContext: true,
      generateUniqueId: () => `_${randomBytes(20).toString('hex')}`,
      cacheProvider,
    };
  }

  /**
   * node-saml's request-id cache, backed by the app DB. Saving records the pending request with `returnTo`;
   * removal is ours (consume() deletes the id once the whole response is accepted, atomically).
   */
  private requestCache(returnTo: string | null): CacheProvider {
    return {
      saveAsync: async (key: string, value: string) => {
        const createdAt = Date.now();
        await this.state.saveRequest(key, returnTo, createdAt + REQUEST_TTL_MS);
        return { value, createdAt };
      },
      getAsync: async (key: string) => {
        const now = Date.now();
        return (await this.state.findRequest(key, now)) ? new Date(now).toISOString() : null;
      },
      removeAsync: async (key: string | null) => key,
    };
  }
}
