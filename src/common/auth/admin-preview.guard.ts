import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { PREVIEW_TOKEN_GUARD, type TokenGuard } from './access-plugins';
import { SuperuserGuard } from './superuser.guard';

/**
 * `@Access('admin-preview')`: a superuser, then the preview token of the path, checked by PREVIEW_TOKEN_GUARD (the
 * embedding module's, see access-plugins.ts). The token guard never runs for anyone else.
 */
@Injectable()
export class AdminPreviewGuard implements CanActivate {
  private readonly superuser = new SuperuserGuard();

  constructor(@Inject(PREVIEW_TOKEN_GUARD) private readonly check: TokenGuard) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    this.superuser.canActivate(ctx);
    return (await this.check.canActivate(ctx)) === true;
  }
}
