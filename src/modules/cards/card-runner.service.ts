import { Injectable } from '@nestjs/common';
import { isShared, type Reader } from '../../common/auth/shared-grant';
import { parseJson } from '../../common/database/stored-json';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import type { CardRow } from '../../schema/card.rows';
import { type DatasetAnswer, DatasetService, type DatasetStream, PivotService, QueryContent } from '../dataset';
import { QueryCachePolicy } from '../query-cache';
import { CardsRepository } from './cards.repository';
import { withModelColumns } from './model-columns';

export interface CardRunOptions {
  parameters?: Array<Record<string, unknown>> | null;
  ignoreCache?: boolean;
  dashboardId?: number | null;
  /** The execution log's context; default `question`. */
  context?: string;
  /** Row cap when the query sets none (downloads: EXPORT_MAX_ROWS, preview embeds 2,000); default the ad-hoc 2,000. */
  maxRows?: number;
}

/**
 * Runs a saved question: its query with the request's parameters (and its defaults for those not given), under the
 * card's cache rules, logged as the card's run (in `dashboardId`'s context when given). The one runner of the signed-in
 * card and dashcard endpoints and of public links and embeds; only `who` differs. A user's data and native
 * permissions are DatasetService's to check; that the user may read the card is CardAccessService's, before this runs.
 * A grant runs only the card it names, or a card of the dashboard it names in that dashboard's context, with no
 * user's permissions (as Metabase's public and embed runs): its guard has loaded the object, and the caller of a
 * dashcard run has checked the card is on it.
 */
@Injectable()
export class CardRunner {
  constructor(
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
    private readonly policy: QueryCachePolicy,
    private readonly cards: CardsRepository,
    private readonly content: QueryContent,
  ) {}

  /** The whole result in hand (the public and embed answers trim it). */
  async run(who: Reader, card: CardRow, opts: CardRunOptions, signal: AbortSignal): Promise<DatasetAnswer> {
    return (await this.execute(who, card, opts, signal, false)) as DatasetAnswer;
  }

  /** Rows still to be read while they are written out, unless the result is cached or failed. */
  stream(who: Reader, card: CardRow, opts: CardRunOptions, signal: AbortSignal): Promise<DatasetAnswer | DatasetStream> {
    return this.execute(who, card, opts, signal, true);
  }

  /** The card's pivot run: its rows and the subtotals of its pivot table (rows tagged by `pivot-grouping`). */
  async pivot(who: Reader, card: CardRow, opts: CardRunOptions, signal: AbortSignal): Promise<QueryResults | FailedResults> {
    const dashboardId = assertGranted(who, card, opts);
    const query = withParameters(card, opts.parameters);
    const constraints = opts.maxRows ? { constraints: { ...(query.constraints as object | undefined), 'max-results': opts.maxRows } } : {};
    const body = { ...query, ...constraints, visualization_settings: parseJson(card.visualization_settings, {}) };
    return this.pivots.run(body, who, signal, opts.context ?? 'question', card.id, dashboardId);
  }

  private async execute(
    who: Reader,
    card: CardRow,
    opts: CardRunOptions,
    signal: AbortSignal,
    streaming: boolean,
  ): Promise<DatasetAnswer | DatasetStream> {
    const dashboardId = assertGranted(who, card, opts);
    const query = await this.content.cardRun(card, withParameters(card, opts.parameters));
    const database = card.database_id === null ? null : await this.cards.databaseCacheTtl(card.database_id);
    const plan = await this.policy.plan({ query, card: card.cache_ttl, database });
    const options = {
      context: opts.context ?? 'question',
      cardId: card.id,
      dashboardId,
      ignoreCache: opts.ignoreCache === true,
      ...(opts.maxRows ? { defaultMaxRows: opts.maxRows } : {}),
      ...plan,
    };
    const answer = await (streaming ? this.dataset.stream(query, who, signal, options) : this.dataset.run(query, who, signal, options));
    return card.type === 'model' ? withModelColumns(answer, card.result_metadata) : answer;
  }
}

/** The run's dashboard; a grant's run must be of its own card, or in its own dashboard (a programming error otherwise). */
function assertGranted(who: Reader, card: CardRow, opts: CardRunOptions): number | null {
  const dashboardId = opts.dashboardId ?? null;
  if (!isShared(who)) return dashboardId;
  const { model, id } = who.shared;
  const own = model === 'card' ? dashboardId === null && card.id === id : dashboardId === id;
  if (!own) throw new Error(`A ${model} grant cannot run card ${card.id}${dashboardId === null ? '' : ` on dashboard ${dashboardId}`}`);
  return dashboardId;
}

/**
 * The request's parameter values; a card parameter with a `default` that the request does not set applies it
 * (as Metabase's card query does).
 */
export function withParameters(row: CardRow, given: Array<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  const query = parseJson<Record<string, unknown>>(row.dataset_query, {});
  const sent = Array.isArray(given) ? given : [];
  const ids = new Set(sent.map((p) => p.id));
  const defaults = parseJson<Array<Record<string, unknown>>>(row.parameters, [])
    .filter((p) => p && p.default !== undefined && p.default !== null && p.target !== undefined && !ids.has(p.id))
    .map((p) => ({ id: p.id, type: p.type, target: p.target, value: p.default, ...(p.slug ? { slug: p.slug } : {}) }));
  const all = [...sent, ...defaults];
  return all.length ? { ...query, parameters: all } : query;
}
