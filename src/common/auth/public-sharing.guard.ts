import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError, MessageError, NotFoundError } from '../errors/api-errors';
import { SETTINGS_READER, SettingsReader } from '../settings/settings-reader';
import { PUBLIC_LINK_RESOLVER, type PublicLinkResolver } from './access-plugins';
import { setShared } from './shared-object';

/** Metabase's `ms/UUIDString`. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const PUBLIC_SHARING_OFF = 'Public sharing is not enabled.';
export const MALFORMED_UUID = 'value must be a valid UUID.';

/** 400 for a `:uuid` that is not one: the one failure of the public surface that says what is wrong. */
export class MalformedUuidError extends ApiError {
  readonly status = 400;
  override readonly answeredPublicly = true;
  constructor() {
    super(MALFORMED_UUID);
  }
  body() {
    return MALFORMED_UUID;
  }
}

/**
 * `@Access('public-sharing')`: no login. The instance must allow public links (else a 400, which the public surface
 * answers as `An error occurred.`), the `:uuid` of the path must be a UUID (400 MALFORMED_UUID), and it must name a
 * shared object (404): the public-sharing module's PUBLIC_LINK_RESOLVER loads it, and the controller receives it through
 * @SharedObject(). A route without `:uuid` (oEmbed) needs only the setting.
 */
@Injectable()
export class PublicSharingGuard implements CanActivate {
  constructor(
    @Inject(SETTINGS_READER) private readonly settings: SettingsReader,
    @Inject(PUBLIC_LINK_RESOLVER) private readonly links: PublicLinkResolver,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    if ((await this.settings.get<boolean>('enable-public-sharing')) !== true) throw new MessageError(PUBLIC_SHARING_OFF);
    const uuid: unknown = ctx.switchToHttp().getRequest<Request>().params?.uuid;
    if (uuid === undefined) return true;
    if (typeof uuid !== 'string' || !UUID.test(uuid)) throw new MalformedUuidError();
    const shared = await this.links.resolve(uuid.toLowerCase(), ctx);
    if (!shared) throw new NotFoundError();
    setShared(ctx, shared);
    return true;
  }
}
