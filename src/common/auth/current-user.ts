import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** The caller, as resolved by the AuthGuard from a session cookie, session header or API key. */
export interface AuthUser {
  id: number;
  isSuperuser: boolean;
  groupIds: number[];
  /** Set when authenticated by a session (not by an API key). */
  sessionKeyHash?: string;
  apiKeyId?: number;
}

export type AuthedRequest = Request & { user?: AuthUser };

/** The authenticated caller; on `public` routes it may be undefined. */
export const CurrentUser = createParamDecorator((_data: unknown, ctx: ExecutionContext): AuthUser | undefined => {
  return ctx.switchToHttp().getRequest<AuthedRequest>().user;
});
