import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PUBLIC_SHARING_OFF } from '../../common/auth/public-sharing.guard';
import type { AuthUser } from '../../common/auth/current-user';
import { ArchivedError, MessageError, NotFoundError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings';
import { PublicLinksRepository, type SharedModel } from './public-links.repository';

/**
 * POST/DELETE /api/card/:id/public_link and the dashboard twins (superusers, by their guard): a link is made once and
 * then returned as it is; public sharing must be on for both.
 */
@Injectable()
export class PublicLinkService {
  constructor(
    private readonly links: PublicLinksRepository,
    private readonly settings: SettingsService,
  ) {}

  async share(caller: AuthUser, model: SharedModel, id: number): Promise<{ uuid: string }> {
    await this.assertEnabled();
    const link = await this.links.link(model, id);
    if (!link) throw new NotFoundError();
    if (link.archived) throw new ArchivedError();
    if (link.public_uuid) return { uuid: link.public_uuid };
    const uuid = await this.links.share(model, id, randomUUID(), caller.id);
    if (!uuid) throw new NotFoundError();
    return { uuid };
  }

  /** 404 when the object has no link (as Metabase). */
  async unshare(model: SharedModel, id: number): Promise<void> {
    await this.assertEnabled();
    const link = await this.links.link(model, id);
    if (!link?.public_uuid) throw new NotFoundError();
    await this.links.unshare(model, id);
  }

  private async assertEnabled(): Promise<void> {
    if ((await this.settings.get<boolean>('enable-public-sharing')) !== true) throw new MessageError(PUBLIC_SHARING_OFF);
  }
}
