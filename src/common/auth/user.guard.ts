import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { UnauthenticatedError } from '../errors/api-errors';
import type { AuthedRequest } from './current-user';

/** `@Access('user')`: a signed-in user or an API key, as identified by the global AuthGuard. */
@Injectable()
export class UserGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    if (!ctx.switchToHttp().getRequest<AuthedRequest>().user) throw new UnauthenticatedError();
    return true;
  }
}
