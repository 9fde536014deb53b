import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { UnauthenticatedError } from '../../../common/errors/api-errors';
import type { SsoRequest } from '../sso-request';
import { type SsoClaims, verifySsoToken } from './jwt-sso-token';
import { SsoTokenStrategyBase } from './sso-token.strategy-base';

export const JWT_SSO_STRATEGY = 'sso-jwt';

/**
 * JWT SSO as a passport strategy: verifies the token (HS256 pinned, through @nestjs/jwt) and answers its claims. It
 * holds no state: passport keeps strategies in one process-wide registry, so the secret comes from the request (the SSO
 * guard read it from the settings of the instance serving it), never from a service captured at construction.
 */
@Injectable()
export class JwtSsoStrategy extends PassportStrategy(SsoTokenStrategyBase, JWT_SSO_STRATEGY) {
  validate(req: SsoRequest, token: string): SsoClaims {
    const secret = req.sso?.jwtSecret;
    if (!secret) throw new UnauthenticatedError();
    return verifySsoToken(token, secret);
  }
}
