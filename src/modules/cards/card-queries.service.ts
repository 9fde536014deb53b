import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { ContentRegistry } from '../dataset/content.registry';
import { DatasetService, type DatasetAnswer, type DatasetStream } from '../dataset/dataset.service';
import { PivotService } from '../dataset/pivot.service';
import { QueryCachePolicy } from '../query-cache/query-cache.policy';
import { CardAccessService } from './card-access.service';
import { CardsRepository, type CardRow } from './cards.repository';
import { parseJson } from '../../common/database/stored-json';

/** A metadata run reads one row: the columns are what it is for. */
const METADATA_ROWS = 1;
const METADATA_TIMEOUT_MS = 60_000;

export interface CardRunOptions {
  parameters?: Array<Record<string, unknown>> | null;
  ignoreCache?: boolean;
  dashboardId?: number | null;
  context?: string;
  /** Row cap when the query sets none (downloads: EXPORT_MAX_ROWS); default the ad-hoc 2,000. */
  maxRows?: number;
}

/** What a download of a card writes besides the rows (see dataset/export/write-export.ts). */
export interface CardDownload {
  name: string;
  display: string;
  visualizationSettings: Record<string, unknown>;
  /** True when the run is the card's pivot run (rows tagged by `pivot-grouping`). */
  pivot: boolean;
  answer: DatasetAnswer | DatasetStream;
}

/** Runs saved questions (POST /api/card/:id/query and the pivot twin) and works out a query's result columns. */
@Injectable()
export class CardQueriesService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
    private readonly policy: QueryCachePolicy,
    private readonly access: CardAccessService,
    private readonly cards: CardsRepository,
    private readonly content: ContentRegistry,
  ) {}

  /** The columns of the query's result, from a run of it; null when it fails (the card then saves without). */
  async resultMetadata(caller: AuthUser, sent: unknown): Promise<unknown[] | null> {
    try {
      const result = await this.dataset.run(sent, caller, AbortSignal.timeout(METADATA_TIMEOUT_MS), { log: false, defaultMaxRows: METADATA_ROWS, context: 'question' });
      return result.status === 'completed' ? result.data.results_metadata.columns : null;
    } catch {
      return null;
    }
  }

  /** The card's query with the request's parameters (and the card's defaults for those not given), run with the card's cache rules. */
  async run(caller: AuthUser, id: number, opts: CardRunOptions, signal: AbortSignal): Promise<DatasetAnswer | DatasetStream> {
    const { row } = await this.access.readable(caller, id);
    const query = await this.content.cardRun(row, withParameters(row, opts.parameters));
    const plan = await this.policy.plan({ query, card: row.cache_ttl, database: await this.databaseTtl(row) });
    return this.dataset.stream(query, caller, signal, {
      context: opts.context ?? 'question',
      cardId: Number(row.id),
      dashboardId: opts.dashboardId ?? null,
      ignoreCache: opts.ignoreCache === true,
      ...(opts.maxRows ? { defaultMaxRows: opts.maxRows } : {}),
      ...plan,
    });
  }

  /** A download of the card: its run (the pivot run when `pivot` and the card is a pivot table), name and settings. */
  async download(caller: AuthUser, id: number, opts: CardRunOptions & { pivot: boolean }, signal: AbortSignal): Promise<CardDownload> {
    const { row } = await this.access.readable(caller, id);
    const pivot = opts.pivot && row.display === 'pivot';
    const answer = pivot ? await this.pivot(caller, id, opts, signal) : await this.run(caller, id, opts, signal);
    return { name: row.name, display: row.display, visualizationSettings: parseJson(row.visualization_settings, {}), pivot, answer };
  }

  async pivot(caller: AuthUser, id: number, opts: CardRunOptions, signal: AbortSignal): Promise<QueryResults | FailedResults> {
    const { row } = await this.access.readable(caller, id);
    const query = withParameters(row, opts.parameters);
    const constraints = opts.maxRows ? { constraints: { ...(query.constraints as object | undefined), 'max-results': opts.maxRows } } : {};
    const body = { ...query, ...constraints, visualization_settings: parseJson(row.visualization_settings, {}) };
    return this.pivots.run(body, caller, signal, opts.context ?? 'question', Number(row.id), opts.dashboardId ?? null);
  }

  private async databaseTtl(row: CardRow): Promise<number | null> {
    if (row.database_id === null) return null;
    return this.cards.databaseCacheTtl(Number(row.database_id));
  }
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
