import { Injectable } from '@nestjs/common';
import { DashboardsRepository } from '../dashboards/dashboards.repository';
import { DashcardActionsRegistry } from '../dashboards/dashcard-actions';
import { SharedFieldsService } from '../public-sharing/shared-fields.service';
import { dashcardActionIds, sharedCardView, sharedDashboardView } from '../public-sharing/shared-views';
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
    private readonly dashboards: DashboardsRepository,
    private readonly actions: DashcardActionsRegistry,
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
    const [tabs, paramFields, actions] = await Promise.all([
      this.dashboards.tabs(Number(found.dashboard.id)),
      this.lookups.allowed(grant, cards).then((ids) => this.fields.paramFields(ids)),
      this.actions.publicViews(dashcardActionIds(found)),
    ]);
    const shown = viewerSettable(dashboardParameters(found), grant.whitelist, grant.claims.params);
    return embedDashboardView(sharedDashboardView(found, tabs, cards, paramFields, actions), shown);
  }
}
