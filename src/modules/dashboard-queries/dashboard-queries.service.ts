import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import { NotFoundError } from '../../common/errors/api-errors';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { type CardDownload, CardQueriesService } from '../cards';
import { parseJson } from '../../common/database/stored-json';
import { type DatasetAnswer, type DatasetStream, mergedVisualizationSettings } from '../dataset';
import { DashboardsService, type ReadableDashboard } from '../dashboards';
import { mapParameters, type SentValue } from './parameter-mapping';

export interface DashcardRun {
  dashboardId: number;
  dashcardId: number;
  cardId: number;
  parameters?: SentValue[] | null;
  ignoreCache?: boolean;
}

/**
 * Runs a card in a dashboard's context (POST /api/dashboard/:d/dashcard/:dc/card/:c/query and the pivot twin): the
 * card must be the dashcard's or one of its series (else 404, as Metabase's `check-card-and-dashcard-are-in-dashboard`),
 * the dashboard's parameter values become the card's through the dashcard's mappings, and the card query runs with
 * context `dashboard` (the card's read permission and cache rules applying as for the card itself).
 */
@Injectable()
export class DashboardQueriesService {
  constructor(
    private readonly dashboards: DashboardsService,
    private readonly cards: CardQueriesService,
  ) {}

  async run(caller: AuthUser, r: DashcardRun, signal: AbortSignal): Promise<DatasetAnswer | DatasetStream> {
    const parameters = await this.resolve(caller, r);
    return this.cards.run(
      caller,
      r.cardId,
      { parameters, ignoreCache: r.ignoreCache === true, dashboardId: r.dashboardId, context: 'dashboard' },
      signal,
    );
  }

  async pivot(caller: AuthUser, r: DashcardRun, signal: AbortSignal): Promise<QueryResults | FailedResults> {
    const parameters = await this.resolve(caller, r);
    return this.cards.pivot(caller, r.cardId, { parameters, dashboardId: r.dashboardId, context: 'dashboard' }, signal);
  }

  /**
   * A download of a dashcard's card (POST .../card/:c/query/:export-format): the dashboard's parameters mapped as
   * for run(), the card run with the download's context and row cap; the dashcard's visualization settings over
   * the card's (as the dashboard shows it).
   */
  async download(
    caller: AuthUser,
    r: DashcardRun,
    opts: { context: string; maxRows: number; pivot: boolean },
    signal: AbortSignal,
  ): Promise<CardDownload> {
    const { parameters, dashcard } = await this.resolveWithDashcard(caller, r);
    const found = await this.cards.download(caller, r.cardId, { parameters, dashboardId: r.dashboardId, ...opts }, signal);
    const own = dashcard.card_id === r.cardId ? parseJson<Record<string, unknown>>(dashcard.row.visualization_settings, {}) : {};
    return { ...found, visualizationSettings: mergedVisualizationSettings(found.visualizationSettings, own) };
  }

  private async resolve(caller: AuthUser, r: DashcardRun) {
    return (await this.resolveWithDashcard(caller, r)).parameters;
  }

  private async resolveWithDashcard(caller: AuthUser, r: DashcardRun) {
    const found: ReadableDashboard = await this.dashboards.readable(caller, r.dashboardId);
    const dashcard = found.dashcards.find((dc) => dc.id === r.dashcardId);
    if (!dashcard) throw new NotFoundError();
    if (dashcard.card_id !== r.cardId && !dashcard.series_card_ids.includes(r.cardId)) throw new NotFoundError();
    return {
      dashcard,
      parameters: mapParameters(
        r.dashboardId,
        found.dashboard.parameters_list,
        dashcard.parameter_mappings,
        dashcard.card_id,
        r.cardId,
        r.parameters,
      ),
    };
  }
}
