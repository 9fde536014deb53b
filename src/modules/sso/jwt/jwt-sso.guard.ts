import { Injectable } from '@nestjs/common';
import { UnauthenticatedError } from '../../../common/errors/api-errors';
import { StrategyGuard } from '../strategy.guard';
import type { SsoClaims } from './jwt-sso-token';
import { JwtSsoService } from './jwt-sso.service';
import { JwtSsoStrategy } from './jwt-sso.strategy';

/** Runs its JwtSsoStrategy on the request; the verified claims land on `req.ssoJwtClaims`. Refusals keep their message. */
@Injectable()
export class JwtSsoAuthGuard extends StrategyGuard<SsoClaims> {
  constructor(jwt: JwtSsoService) {
    super(new JwtSsoStrategy(jwt), 'ssoJwtClaims');
  }

  handleRequest(err: unknown, claims: unknown): SsoClaims {
    if (err) throw err;
    if (!claims) throw new UnauthenticatedError();
    return claims as SsoClaims;
  }
}
