import { Injectable } from '@nestjs/common';
import { dashcardActions } from '../dashboards';
import { EventBus } from '../../common/events/event-bus';
import { dashcardActionIds, sharedCardView, sharedDashboardView, SharedFieldsService } from '../public-sharing';
import { cardOf, cardParameters, dashboardOf, dashboardParameters } from './embed-grant';
import { EmbedLookupsService } from './embed-lookups.service';
import type { EmbedGrant } from './embed-token.guard';
import { embedDashboardView, viewerSettable } from './embed-views';

/**
 * GET /api/embed/card/:token and /api/embed/dashboard/:token (and their previews): the public shape of the object
 * (the public-sharing module's views), with only the parameters a viewer may set (enabled in the whitelist and not
 * set by the token), and `param_fields` only for the fields behind those.
 */
@Injectable()
export class EmbeddingService {
  constructor(
    private readonly bus: EventBus,
    private readonly fields: SharedFieldsService,
    private readonly lookups: EmbedLookupsService,
  ) {}

  async card(grant: EmbedGrant) {
    const card = cardOf(grant);
    const paramFields = await this.fields.paramFields(await this.lookups.allowed(grant));
    return { ...sharedCardView(card, paramFields), parameters: viewerSettable(cardParameters(card), grant.whitelist, grant.claims.params) };
  }

  async dashboard(grant: EmbedGrant) {
    const found = dashboardOf(grant);
    const cards = await this.fields.dashboardCards(found);
    const [paramFields, actions] = await Promise.all([
      this.lookups.allowed(grant, cards).then((ids) => this.fields.paramFields(ids)),
      dashcardActions(this.bus, dashcardActionIds(found), 'public'),
    ]);
    const shown = viewerSettable(dashboardParameters(found), grant.whitelist, grant.claims.params);
    return embedDashboardView(sharedDashboardView(found, found.tabs, cards, paramFields, actions), shown);
  }
}
