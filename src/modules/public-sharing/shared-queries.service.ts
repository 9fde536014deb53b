import { Injectable } from '@nestjs/common';
import type { SharedGrant } from '../../common/auth/shared-grant';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { CardRunner, CardsRepository } from '../cards';
import { type CardRow } from '../../schema/card.rows';
import { mapParameters, type SentValue } from '../dashboard-queries';
import { DashboardsService, type ReadableDashboard, type ReadableDashcard } from '../dashboards';
import type { DatasetAnswer } from '../dataset';
import { sharedParameters } from './shared-views';

/**
 * The cards and dashboards of verified anonymous contexts (public links, signed embeds; the embedding module reuses
 * it for /api/embed and /api/preview-embed): what their guards load, and a dashcard's run. Runs go through the cards
 * module's CardRunner with the grant the guard produced (no user, no permission check: the query is the saved one,
 * with parameters applied as for a signed-in user, the card's cache rules, and the run logged with its context and
 * no executor).
 *
 * - `card(id)` / `dashboard(grant)`: the unarchived card row / the grant's dashboard with its dashcards; null when
 *   missing or archived.
 * - `cardsById(ids)`: the unarchived cards among `ids`, by id, in one query (a dashboard's cards).
 * - `cardValues(card, sent)` (a function): a viewer's `[{id, value}]` as the card's own parameters with those ids
 *   (their type and target, never the viewer's); an id the card does not have is a 400.
 * - `dashcard(dashboard, dashcardId, cardId)`: the dashcard and its card when the card is the dashcard's or one of its
 *   series and is not archived; else NotFoundError (404).
 * - `runDashcard(grant, dashboard, dashcardId, cardId, values, run, signal, pivot?)`: `values` are the dashboard's
 *   parameter values `[{id, value}]` (ids of the dashboard's parameters; an unknown id is a 400), mapped onto the card.
 *   Answers the full result: shape it for the wire with `sharedResults()` of shared-results.ts.
 * `run`: `{context, maxRows?}`; `maxRows` caps rows when the query sets no limit of its own (preview embeds: 2,000;
 * default: the ad-hoc 2,000 too).
 */
export interface SharedRun {
  /** `public-question`, `public-dashboard`, `embedded-question`, `embedded-dashboard`, or a download's context. */
  context: string;
  maxRows?: number;
}

export interface SharedDashcard {
  dashcard: ReadableDashcard;
  card: CardRow;
}

@Injectable()
export class SharedQueriesService {
  constructor(
    private readonly cards: CardsRepository,
    private readonly dashboards: DashboardsService,
    private readonly runner: CardRunner,
  ) {}

  async card(id: number): Promise<CardRow | null> {
    const row = await this.cards.row(id);
    return row && !row.archived ? row : null;
  }

  async cardsById(ids: number[]): Promise<Map<number, CardRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await this.cards.byIds(unique, { archived: false });
    return new Map(rows.map((r) => [r.id, r]));
  }

  /** Called by the guards once they have verified the link or token: `grant` names the dashboard. */
  async dashboard(grant: SharedGrant): Promise<ReadableDashboard | null> {
    const found = await this.dashboards.readable(grant, grant.shared.id).catch((e: unknown) => {
      if (e instanceof NotFoundError) return null;
      throw e;
    });
    return found && !found.dashboard.archived ? found : null;
  }

  async dashcard(dashboard: ReadableDashboard, dashcardId: number, cardId: number): Promise<SharedDashcard> {
    const dashcard = dashboard.dashcards.find((dc) => dc.id === dashcardId);
    if (!dashcard || (dashcard.card_id !== cardId && !dashcard.series_card_ids.includes(cardId))) throw new NotFoundError();
    const card = await this.card(cardId);
    if (!card) throw new NotFoundError();
    return { dashcard, card };
  }

  async runDashcard(
    grant: SharedGrant,
    dashboard: ReadableDashboard,
    dashcardId: number,
    cardId: number,
    values: SentValue[] | null | undefined,
    run: SharedRun,
    signal: AbortSignal,
    pivot = false,
  ): Promise<DatasetAnswer | QueryResults | FailedResults> {
    const { dashcard, card } = await this.dashcard(dashboard, dashcardId, cardId);
    const dashboardId = dashboard.dashboard.id;
    const parameters = mapParameters(
      dashboardId,
      dashboard.dashboard.parameters_list,
      dashcard.parameter_mappings,
      dashcard.card_id,
      cardId,
      values,
    );
    const opts = { parameters, dashboardId, ...run };
    return pivot ? this.runner.pivot(grant, card, opts, signal) : this.runner.run(grant, card, opts, signal);
  }
}

/**
 * The values a viewer sent for a shared card's parameters, as the card's parameters: the card's type and target
 * (its stored parameters, or those its template tags make), so that a viewer can only filter where the card lets
 * them, never on a field of their choosing. A value for a parameter the card does not have is refused.
 */
export function cardValues(card: CardRow, sent: unknown[]): Array<Record<string, unknown>> {
  const params = new Map(sharedParameters(card).map((p) => [p.id, p]));
  return sent.map((raw) => {
    const s = (raw ?? {}) as Record<string, unknown>;
    const p = typeof s.id === 'string' ? params.get(s.id) : undefined;
    if (!p) throw new MessageError(`Card ${card.id} does not have a parameter with the ID ${JSON.stringify(s.id ?? null)}.`);
    return { id: p.id, type: p.type, target: p.target, value: s.value, ...(typeof p.slug === 'string' ? { slug: p.slug } : {}) };
  });
}
