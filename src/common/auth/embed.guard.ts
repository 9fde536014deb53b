import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { EMBED_TOKEN_GUARD, type TokenGuard } from './access-plugins';

/**
 * `@Access('embed')`: no login; the signed token in the path authorizes. The check itself is the embedding module's
 * (EMBED_TOKEN_GUARD, see access-plugins.ts); this guard only makes sure it runs, and that nothing but `true` passes.
 */
@Injectable()
export class EmbedGuard implements CanActivate {
  constructor(@Inject(EMBED_TOKEN_GUARD) private readonly check: TokenGuard) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    return (await this.check.canActivate(ctx)) === true;
  }
}
