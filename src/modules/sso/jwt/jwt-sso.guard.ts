import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { UnauthenticatedError } from '../../../common/errors/api-errors';
import { JWT_SSO_STRATEGY } from './jwt-sso.strategy';

/** Runs the `sso-jwt` strategy; the verified claims land on `req.ssoJwtClaims`. Its refusals keep their message. */
@Injectable()
export class JwtSsoAuthGuard extends AuthGuard(JWT_SSO_STRATEGY) {
  override getAuthenticateOptions() {
    return { session: false, property: 'ssoJwtClaims' };
  }

  override handleRequest<T>(err: unknown, claims: T, _info: unknown, _ctx: ExecutionContext): T {
    if (err) throw err;
    if (!claims) throw new UnauthenticatedError();
    return claims;
  }
}
