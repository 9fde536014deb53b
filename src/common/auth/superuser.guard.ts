import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ForbiddenError, UnauthenticatedError } from '../errors/api-errors';
import type { AuthedRequest } from './current-user';

/** `@Access('admin')`: a superuser (401 without credentials, 403 for anyone else). */
@Injectable()
export class SuperuserGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const user = ctx.switchToHttp().getRequest<AuthedRequest>().user;
    if (!user) throw new UnauthenticatedError();
    if (!user.isSuperuser) throw new ForbiddenError();
    return true;
  }
}
