import { Injectable } from '@nestjs/common';
import { MessageError } from '../../common/errors/api-errors';
import { SettingsService } from '../settings';
import { CardsRepository } from './cards.repository';

export const EMBEDDING_DISABLED = 'Embedding is not enabled.';
export const PUBLIC_SHARING_DISABLED = 'Public sharing is not enabled.';

/** The admin listings of shared cards (GET /api/card/embeddable and /public), as Metabase answers them. */
@Injectable()
export class CardSharingService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly settings: SettingsService,
  ) {}

  async embeddable(): Promise<Array<{ id: number; name: string }>> {
    if (!(await this.settings.get<boolean>('enable-embedding-static'))) throw new MessageError(EMBEDDING_DISABLED);
    return (await this.cards.embeddable()).map((r) => ({ id: r.id, name: r.name }));
  }

  async publicCards(): Promise<Array<{ id: number; name: string; public_uuid: string }>> {
    if (!(await this.settings.get<boolean>('enable-public-sharing'))) throw new MessageError(PUBLIC_SHARING_DISABLED);
    return (await this.cards.withPublicLinks()).map((r) => ({ id: r.id, name: r.name, public_uuid: r.public_uuid }));
  }
}
