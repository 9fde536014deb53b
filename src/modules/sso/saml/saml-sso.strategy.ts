import { PassportStrategy } from '@nestjs/passport';
import { MultiSamlStrategy, Profile } from '@node-saml/passport-saml';
import type { Request } from 'express';
import passport from 'passport';
import { SamlRejected } from './saml-rejected.error';
import type { PreparedSamlResponse, SamlSsoService } from './saml-sso.service';

export const SAML_SSO_STRATEGY = 'sso-saml';

type Options = PreparedSamlResponse['options'];

/**
 * The assertion consumer as a passport strategy: @node-saml/passport-saml's MultiSamlStrategy validates the posted
 * SAMLResponse (signature, audience, validity window) with options built per request from the settings in force
 * (SamlSsoService.prepare, which first refuses what no XML parser should see), and its sign-on verify runs the checks
 * node-saml leaves to us on the signed assertion (issuer, Recipient, InResponseTo, replay), answering the login.
 * SamlSsoAuthGuard holds and runs this instance; it is registered nowhere (getPassportInstance).
 */
export class SamlSsoStrategy extends PassportStrategy(MultiSamlStrategy, SAML_SSO_STRATEGY) {
  constructor(saml: SamlSsoService) {
    // What prepare() answered for a request, from getSamlOptions to the verify (both receive the request).
    const prepared = new WeakMap<object, PreparedSamlResponse>();
    super(
      {
        passReqToCallback: true,
        getSamlOptions: (req: object, done: (err: Error | null, options?: Options) => void) => {
          const { query, body } = req as Request;
          // passport-saml reads a SAMLResponse of the query string before the form's: only the form is checked and taken.
          if (query?.SAMLResponse !== undefined || query?.SAMLRequest !== undefined) {
            return done(new SamlRejected('a SAML message in the query string (only the posted form is read)'));
          }
          saml.prepare(body as Record<string, unknown> | undefined).then(
            (p) => {
              prepared.set(req, p);
              done(null, p.options);
            },
            (err: Error) => done(err),
          );
        },
      },
      (req: object, profile: Profile | null, done: (err: Error | null, user?: Record<string, unknown>) => void) => {
        const p = prepared.get(req);
        prepared.delete(req);
        if (!p) return done(new Error('SAML response not prepared'));
        p.accept(profile).then(
          (login) => done(null, login as unknown as Record<string, unknown>),
          (err: Error) => done(err),
        );
      },
    );
  }

  /** Where @nestjs/passport registers the strategy as it is built: a registry of its own, never passport's shared one. */
  getPassportInstance(): passport.Authenticator {
    return new passport.Authenticator();
  }

  /** Nest hands this to MultiSamlStrategy as its logout verify: single logout is not offered, so it refuses. */
  validate(): never {
    throw new Error('SAML single logout is not supported');
  }
}
