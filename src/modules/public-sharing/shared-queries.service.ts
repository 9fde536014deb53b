import { Injectable } from '@nestjs/common';
import { MessageError, NotFoundError } from '../../common/errors/api-errors';
import { parseJson } from '../../common/database/stored-json';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { withParameters } from '../cards/card-queries.service';
import { CardsRepository, type CardRow } from '../cards/cards.repository';
import { mapParameters, type SentValue } from '../dashboard-queries/parameter-mapping';
import type { ReadableDashboard, ReadableDashcard } from '../dashboards/dashboard-model';
import { DashboardsService } from '../dashboards/dashboards.service';
import { ContentRegistry } from '../dataset/content.registry';
import { DatasetService, type DatasetAnswer, type DatasetStream } from '../dataset/dataset.service';
import { PivotService } from '../dataset/pivot.service';
import type { SharedAuthorization } from '../dataset/query-authorization';
import { QueryCachePolicy } from '../query-cache/query-cache.policy';
import { SHARED_READER } from './shared-reader';
import { sharedParameters } from './shared-views';

/**
 * Runs a card, or a card of a dashboard, for a verified anonymous context: a public link or a signed embed whose
 * guard has already checked the link or token and loaded the object. No user and no permission check: the query is
 * the saved one, with parameters applied as for a signed-in user (a card's defaults; a dashboard's values mapped onto
 * the dashcard's card by its parameter mappings), the card's cache rules, and the run logged with `context`
 * (COMPAT.md "Query results") and no executor.
 *
 * API (the embedding module reuses it for /api/embed and /api/preview-embed):
 * - `card(id)` / `dashboard(id)`: the unarchived card row / dashboard with its dashcards; null when missing or archived.
 * - `cardsById(ids)`: the unarchived cards among `ids`, by id, in one query (a dashboard's cards).
 * - `runCard(card, parameters, run, signal)`: `parameters` as POST /api/card/:id/query takes them
 *   (`[{id?, type, target, value}]`); answers the full DatasetAnswer (completed or failed): shape it for the wire
 *   with `sharedResults()` of shared-results.ts.
 * - `cardValues(card, sent)` (a function): a viewer's `[{id, value}]` as the card's own parameters with those ids
 *   (their type and target, never the viewer's); an id the card does not have is a 400.
 * - `pivotCard(card, parameters, run, signal)`: the same through the pivot runner.
 * - `streamCard(card, parameters, run, signal)`: the same run for a download: rows still to be read (DatasetStream)
 *   unless cached or failed; give it to writeExport through `sharedDownload()` of shared-results.ts, which hides
 *   failures' messages. `run.maxRows`: EXPORT_MAX_ROWS for files.
 * - `dashcard(dashboard, dashcardId, cardId)`: the dashcard and its card when the card is the dashcard's or one of its
 *   series and is not archived; else NotFoundError (404).
 * - `runDashcard(dashboard, dashcardId, cardId, values, run, signal, pivot?)`: `values` are the dashboard's
 *   parameter values `[{id, value}]` (ids of the dashboard's parameters; an unknown id is a 400), mapped onto the card.
 * `run`: `{via: 'public' | 'embed', context, maxRows?}`; `maxRows` caps rows when the query sets no limit of its own
 * (preview embeds: 2,000; default: the ad-hoc 2,000 too).
 */
export interface SharedRun {
  via: SharedAuthorization['shared']['via'];
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
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
    private readonly policy: QueryCachePolicy,
    private readonly content: ContentRegistry,
  ) {}

  async card(id: number): Promise<CardRow | null> {
    const row = await this.cards.row(id);
    return row && !isTrue(row.archived) ? row : null;
  }

  async cardsById(ids: number[]): Promise<Map<number, CardRow>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const marks = unique.map((_, i) => `$${i + 1}`).join(', ');
    const rows = await this.cards.rows(`c.id IN (${marks}) AND c.archived = $${unique.length + 1}`, [...unique, false]);
    return new Map(rows.map((r) => [Number(r.id), r]));
  }

  async dashboard(id: number): Promise<ReadableDashboard | null> {
    const found = await this.dashboards.readable(SHARED_READER, id).catch((e: unknown) => {
      if (e instanceof NotFoundError) return null;
      throw e;
    });
    return found && !isTrue(found.dashboard.archived) ? found : null;
  }

  async runCard(card: CardRow, parameters: unknown[] | null | undefined, run: SharedRun, signal: AbortSignal, dashboardId: number | null = null): Promise<DatasetAnswer> {
    return (await this.execute(card, parameters, run, signal, dashboardId, false)) as DatasetAnswer;
  }

  streamCard(card: CardRow, parameters: unknown[] | null | undefined, run: SharedRun, signal: AbortSignal, dashboardId: number | null = null): Promise<DatasetAnswer | DatasetStream> {
    return this.execute(card, parameters, run, signal, dashboardId, true);
  }

  async pivotCard(card: CardRow, parameters: unknown[] | null | undefined, run: SharedRun, signal: AbortSignal, dashboardId: number | null = null): Promise<QueryResults | FailedResults> {
    const query = withParameters(card, parameters as Array<Record<string, unknown>> | null | undefined);
    const constraints = run.maxRows ? { constraints: { ...(query.constraints as object | undefined), 'max-results': run.maxRows } } : {};
    const body = { ...query, ...constraints, visualization_settings: parseJson(card.visualization_settings, {}) };
    return this.pivots.run(body, this.who(run, card, dashboardId), signal, run.context, Number(card.id), dashboardId);
  }

  async dashcard(dashboard: ReadableDashboard, dashcardId: number, cardId: number): Promise<SharedDashcard> {
    const dashcard = dashboard.dashcards.find((dc) => dc.id === dashcardId);
    if (!dashcard || (dashcard.card_id !== cardId && !dashcard.series_card_ids.includes(cardId))) throw new NotFoundError();
    const card = await this.card(cardId);
    if (!card) throw new NotFoundError();
    return { dashcard, card };
  }

  async runDashcard(
    dashboard: ReadableDashboard,
    dashcardId: number,
    cardId: number,
    values: SentValue[] | null | undefined,
    run: SharedRun,
    signal: AbortSignal,
    pivot = false,
  ): Promise<DatasetAnswer | QueryResults | FailedResults> {
    const { dashcard, card } = await this.dashcard(dashboard, dashcardId, cardId);
    const id = Number(dashboard.dashboard.id);
    const parameters = mapParameters(id, dashboard.dashboard.parameters_list, dashcard.parameter_mappings, dashcard.card_id, cardId, values);
    return pivot ? this.pivotCard(card, parameters, run, signal, id) : this.runCard(card, parameters, run, signal, id);
  }

  private async execute(card: CardRow, parameters: unknown[] | null | undefined, run: SharedRun, signal: AbortSignal, dashboardId: number | null, streaming: boolean): Promise<DatasetAnswer | DatasetStream> {
    const query = await this.content.cardRun(card, withParameters(card, parameters as Array<Record<string, unknown>> | null | undefined));
    const database = card.database_id === null ? null : await this.cards.databaseCacheTtl(Number(card.database_id));
    const plan = await this.policy.plan({ query, card: card.cache_ttl, database });
    const options = { context: run.context, cardId: Number(card.id), dashboardId, ...(run.maxRows ? { defaultMaxRows: run.maxRows } : {}), ...plan };
    const who = this.who(run, card, dashboardId);
    return streaming ? this.dataset.stream(query, who, signal, options) : this.dataset.run(query, who, signal, options);
  }

  private who(run: SharedRun, card: CardRow, dashboardId: number | null): SharedAuthorization {
    return { shared: dashboardId === null ? { via: run.via, model: 'card', id: Number(card.id) } : { via: run.via, model: 'dashboard', id: dashboardId } };
  }
}

const isTrue = (v: unknown) => v === true || v === 1 || v === '1';

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
