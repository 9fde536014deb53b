import { ExecutionContext, Injectable } from '@nestjs/common';
import { StrategyGuard } from '../strategy.guard';
import { SamlRejected } from './saml-rejected.error';
import { SamlLogin, SamlSsoService } from './saml-sso.service';
import { SamlSsoStrategy } from './saml-sso.strategy';

/**
 * Runs its SamlSsoStrategy on a POSTed SAMLResponse; the validated login lands on `req.ssoSamlLogin`. Every refusal is
 * 401 `Unable to log in: SAML response validation failed`, its reason in the log only (SAML switched off stays a 400).
 */
@Injectable()
export class SamlSsoAuthGuard extends StrategyGuard<SamlLogin> {
  constructor(private readonly saml: SamlSsoService) {
    super(new SamlSsoStrategy(saml), 'ssoSamlLogin');
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    try {
      return await super.canActivate(ctx);
    } catch (err) {
      throw this.saml.refusal(err);
    }
  }

  handleRequest(err: unknown, login: unknown): SamlLogin {
    if (err) throw err;
    if (!login) throw new SamlRejected('no login from the SAML strategy');
    return login as SamlLogin;
  }
}
