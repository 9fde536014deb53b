import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { MultiSamlStrategy, Profile } from '@node-saml/passport-saml';
import type { Request } from 'express';
import type { PreparedSamlResponse, SamlLogin } from './saml-sso.service';

export const SAML_SSO_STRATEGY = 'sso-saml';

/** The request as the SAML guard hands it to passport: the response checked up to its signature. */
export type SamlStrategyRequest = Request & { samlSso?: PreparedSamlResponse; ssoSamlLogin?: SamlLogin };

/**
 * The assertion consumer as a passport strategy: @node-saml/passport-saml's MultiSamlStrategy, whose options come
 * per request (the settings in force, read by SamlSsoAuthGuard into `req.samlSso`), validates the posted
 * SAMLResponse; its sign-on verify then runs our checks on the signed profile. It holds no state: passport keeps strategies
 * in one process-wide registry, so everything instance-bound travels on the request.
 */
/** passport-saml types the request with its own copy of express's types; ours is the same object. */
const preparedOf = (req: object): PreparedSamlResponse | undefined => (req as SamlStrategyRequest).samlSso;

@Injectable()
export class SamlSsoStrategy extends PassportStrategy(MultiSamlStrategy, SAML_SSO_STRATEGY) {
  constructor() {
    super(
      {
        passReqToCallback: true,
        getSamlOptions: (req: object, done: (err: Error | null, options?: PreparedSamlResponse['options']) => void) => {
          const prepared = preparedOf(req);
          return prepared ? done(null, prepared.options) : done(new Error('SAML response not prepared'));
        },
      },
      // Sign-on: our checks of the signed profile, then the login.
      (req: object, profile: Profile | null, done: (err: Error | null, user?: Record<string, unknown>) => void) => {
        const prepared = preparedOf(req);
        if (!prepared) return done(new Error('SAML response not prepared'));
        prepared.accept(profile).then(
          (login) => done(null, login as unknown as Record<string, unknown>),
          (err: Error) => done(err),
        );
      },
    );
  }

  /** Nest hands this to MultiSamlStrategy as its logout verify: single logout is not offered, so it refuses. */
  validate(): never {
    throw new Error('SAML single logout is not supported');
  }
}
