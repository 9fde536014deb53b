import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AuthedRequest } from './current-user';

/** A request whose level guard established what it may serve: a public link's object, an embed token's claims. */
export type SharedRequest = AuthedRequest & { shared?: object };

/** Hands the level guard's result to the guard's successors (the controller, through @SharedObject()). */
export function setShared(ctx: ExecutionContext, shared: object): void {
  ctx.switchToHttp().getRequest<SharedRequest>().shared = shared;
}

/**
 * What the route's level guard verified and loaded (`public-sharing`: the shared card or dashboard; `embed`,
 * `admin-preview`: what their token guards put there). A route whose guard set nothing is a bug, never an open door.
 */
export const SharedObject = createParamDecorator((_data: unknown, ctx: ExecutionContext): object => {
  const shared = ctx.switchToHttp().getRequest<SharedRequest>().shared;
  if (!shared) throw new Error('No shared object: the route is not behind a guard that loads one');
  return shared;
});
