import { SetMetadata } from '@nestjs/common';

/**
 * Who may call a route. Every route declares one (a test fails otherwise, and the guard refuses at runtime):
 * - `public`: anyone; the caller is still identified when credentials come along.
 * - `user`: any signed-in user or API key.
 * - `admin`: a superuser.
 * - `public-sharing`: no login; public sharing must be enabled.
 * - `embed`: no login; the signed token in the path authorizes (checked by the embedding service).
 * - `sso`: the login flows themselves.
 */
export type AccessLevel = 'public' | 'user' | 'admin' | 'public-sharing' | 'embed' | 'sso';

export const ACCESS_KEY = 'access-level';

export const Access = (level: AccessLevel) => SetMetadata(ACCESS_KEY, level);
