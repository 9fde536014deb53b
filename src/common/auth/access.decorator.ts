import { applyDecorators, CanActivate, SetMetadata, Type, UseGuards } from '@nestjs/common';
import { AdminPreviewGuard } from './admin-preview.guard';
import { EmbedGuard } from './embed.guard';
import { PublicGuard } from './public.guard';
import { PublicSharingGuard } from './public-sharing.guard';
import { SsoGuard } from './sso.guard';
import { SuperuserGuard } from './superuser.guard';
import { UserGuard } from './user.guard';

/**
 * Who may call a route. Every route declares one (the route test fails otherwise, and the global AuthGuard refuses at
 * runtime); the level names the one guard that decides, applied by the decorator. The global AuthGuard only says
 * who is calling; a controller receives what its level's guard established (@CurrentUser(), @SharedObject()).
 * - `public`: anyone; the caller is still identified when credentials come along.
 * - `user`: any signed-in user or API key.
 * - `admin`: a superuser.
 * - `public-sharing`: no login; public sharing enabled, `:uuid` well formed and naming a shared object, which the
 *   public-sharing module loads (PUBLIC_LINK_RESOLVER) and the controller receives through @SharedObject().
 * - `embed`: no login; the signed token in the path authorizes. The embedding module provides the check as
 *   EMBED_TOKEN_GUARD (a CanActivate) in the module of its controllers; routes just say `@Access('embed')`.
 * - `admin-preview`: a superuser, then the preview token, checked by PREVIEW_TOKEN_GUARD (provided likewise).
 * - `sso`: the login flows; the SSO module provides the check as SSO_GUARD.
 * The tokens and what they must do: access-plugins.ts. `common/` never imports a feature module: each plugs its
 * check in by token, and a module using a level without providing its token fails at boot.
 */
export type AccessLevel = 'public' | 'user' | 'admin' | 'public-sharing' | 'embed' | 'admin-preview' | 'sso';

export const ACCESS_KEY = 'access-level';

/** The guard of each level (the route test checks each route carries its level's). */
export const LEVEL_GUARDS: Readonly<Record<AccessLevel, Type<CanActivate>>> = {
  public: PublicGuard,
  user: UserGuard,
  admin: SuperuserGuard,
  'public-sharing': PublicSharingGuard,
  embed: EmbedGuard,
  'admin-preview': AdminPreviewGuard,
  sso: SsoGuard,
};

export const Access = (level: AccessLevel) => applyDecorators(SetMetadata(ACCESS_KEY, level), UseGuards(LEVEL_GUARDS[level]));
