import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { SSO_GUARD, type TokenGuard } from './access-plugins';

/**
 * `@Access('sso')`: the login flows. The check itself is the SSO module's (SSO_GUARD, see access-plugins.ts): a module
 * using the level without providing it fails at boot, never opens the route; this guard only makes sure the check
 * runs, and that nothing but `true` passes.
 */
@Injectable()
export class SsoGuard implements CanActivate {
  constructor(@Inject(SSO_GUARD) private readonly check: TokenGuard) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    return (await this.check.canActivate(ctx)) === true;
  }
}
