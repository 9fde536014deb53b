import { CanActivate, ExecutionContext, Inject, Injectable, Optional } from '@nestjs/common';
import { SSO_GUARD, type TokenGuard } from './access-plugins';

/** `@Access('sso')`: the login flows. Open until the SSO module provides SSO_GUARD; then that decides. */
@Injectable()
export class SsoGuard implements CanActivate {
  constructor(@Optional() @Inject(SSO_GUARD) private readonly check?: TokenGuard) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    return this.check ? (await this.check.canActivate(ctx)) === true : true;
  }
}
