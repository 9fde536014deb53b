import { ExecutionContext, Injectable } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { SamlRejected } from './saml-rejected.error';
import { SamlSsoService } from './saml-sso.service';
import { SAML_SSO_STRATEGY, SamlStrategyRequest } from './saml-sso.strategy';

/**
 * Runs the `sso-saml` strategy on a POSTed SAMLResponse; the validated login lands on `req.ssoSamlLogin`. Every
 * refusal is 401 `Unable to log in: SAML response validation failed`, its reason in the log only.
 */
@Injectable()
export class SamlSsoAuthGuard extends AuthGuard(SAML_SSO_STRATEGY) {
  constructor(private readonly saml: SamlSsoService) {
    super();
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<SamlStrategyRequest>();
    try {
      req.samlSso = await this.saml.prepare(req.body as Record<string, unknown> | undefined);
      return (await super.canActivate(ctx)) === true;
    } catch (err) {
      throw this.saml.refusal(err);
    } finally {
      delete req.samlSso;
    }
  }

  override getAuthenticateOptions() {
    return { session: false, property: 'ssoSamlLogin' };
  }

  override handleRequest<T>(err: unknown, login: T): T {
    if (err) throw err;
    if (!login) throw new SamlRejected('no login from the SAML strategy');
    return login;
  }
}
