import { ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { PublicLinkResolver } from '../../common/auth/access-plugins';
import type { SharedGrant } from '../../common/auth/shared-grant';
import type { CardRow } from '../../schema/card.rows';
import type { ReadableDashboard } from '../dashboards';
import { PublicLinksRepository, type SharedModel } from './public-links.repository';
import { SharedQueriesService } from './shared-queries.service';

export const PUBLIC_MODEL = 'public-model';

/** Which model the `:uuid` of a controller's public routes names (read by PublicLinks, the PUBLIC_LINK_RESOLVER). */
export const PublicModel = (model: SharedModel) => SetMetadata(PUBLIC_MODEL, model);

/** What a public card route receives through @SharedObject(): the grant of the link and the card it names. */
export interface PublicCard extends SharedGrant {
  model: 'card';
  card: CardRow;
}

/** What a public dashboard route receives through @SharedObject(): the grant of the link and the dashboard it names. */
export interface PublicDashboard extends SharedGrant {
  model: 'dashboard';
  dashboard: ReadableDashboard;
}

/** PUBLIC_LINK_RESOLVER: the unarchived card or dashboard whose public link is the UUID (null: 404). */
@Injectable()
export class PublicLinks implements PublicLinkResolver {
  constructor(
    private readonly reflector: Reflector,
    private readonly links: PublicLinksRepository,
    private readonly shared: SharedQueriesService,
  ) {}

  async resolve(uuid: string, ctx: ExecutionContext): Promise<PublicCard | PublicDashboard | null> {
    const model = this.reflector.getAllAndOverride<SharedModel | undefined>(PUBLIC_MODEL, [ctx.getHandler(), ctx.getClass()]);
    if (!model) throw new Error('A public-sharing route with :uuid must say which model it serves (@PublicModel)');
    const id = await this.links.idByUuid(model, uuid);
    if (id === null) return null;
    const shared = { via: 'public', model, id } as const;
    if (model === 'card') {
      const card = await this.shared.card(id);
      return card ? { shared, model, card } : null;
    }
    const dashboard = await this.shared.dashboard({ shared });
    return dashboard ? { shared, model, dashboard } : null;
  }
}
