import type { CanActivate, ExecutionContext } from '@nestjs/common';

/**
 * What feature modules plug into the access guards of `common/auth` (which may not import `modules/`). Each token is
 * provided by the module whose controllers use the level; a module that uses the level without providing it fails
 * at boot (Nest cannot resolve the guard), never at request time.
 *
 * - EMBED_TOKEN_GUARD (`embed`): a CanActivate that verifies the signed token of the path and hands the verified
 *   claims and resource on (on the request). Provided by the embedding module:
 *   `{ provide: EMBED_TOKEN_GUARD, useClass: EmbedTokenGuard }`.
 * - PREVIEW_TOKEN_GUARD (`admin-preview`): the same for the preview token; AdminPreviewGuard has already checked
 *   that the caller is a superuser when it runs.
 * - PUBLIC_LINK_RESOLVER (`public-sharing`): loads the object a public link's UUID names. Provided by the
 *   public-sharing module.
 * - SSO_GUARD (`sso`): what the SSO flows require (picking the method, checking the return URL, verifying the login
 *   that came along). Provided by the SSO module.
 */
export const EMBED_TOKEN_GUARD = Symbol('EMBED_TOKEN_GUARD');
export const PREVIEW_TOKEN_GUARD = Symbol('PREVIEW_TOKEN_GUARD');
export const PUBLIC_LINK_RESOLVER = Symbol('PUBLIC_LINK_RESOLVER');
export const SSO_GUARD = Symbol('SSO_GUARD');

export interface PublicLinkResolver {
  /**
   * The shared, unarchived object the well-formed `uuid` names for this route (the route says which model), or null
   * when there is none (a 404). What it returns is what the controller receives through @SharedObject().
   */
  resolve(uuid: string, ctx: ExecutionContext): Promise<object | null>;
}

export type TokenGuard = CanActivate;
