import { PassportStrategy } from '@nestjs/passport';
import passport from 'passport';
import { UnauthenticatedError } from '../../../common/errors/api-errors';
import { type SsoClaims, verifySsoToken } from './jwt-sso-token';
import { JwtSsoService } from './jwt-sso.service';
import { SsoTokenStrategyBase } from './sso-token.strategy-base';

export const JWT_SSO_STRATEGY = 'sso-jwt';

/**
 * JWT SSO as a passport strategy: verifies the token that came along (HS256 pinned, see jwt-sso-token.ts) with the
 * shared secret in force and answers its claims. JwtSsoAuthGuard holds and runs this instance; it is registered
 * nowhere (getPassportInstance), so it may use the services of its own app instance.
 */
export class JwtSsoStrategy extends PassportStrategy(SsoTokenStrategyBase, JWT_SSO_STRATEGY) {
  constructor(private readonly jwt: JwtSsoService) {
    super();
  }

  /** Where @nestjs/passport registers the strategy as it is built: a registry of its own, never passport's shared one. */
  getPassportInstance(): passport.Authenticator {
    return new passport.Authenticator();
  }

  async validate(token: string): Promise<SsoClaims> {
    // Read at request time: JWT switched off (or its secret cleared) since the SSO guard looked refuses here too.
    const secret = await this.jwt.sharedSecret();
    if (!secret) throw new UnauthenticatedError();
    return verifySsoToken(token, secret);
  }
}
