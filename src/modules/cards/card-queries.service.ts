import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../common/auth/current-user';
import type { FailedResults, QueryResults } from '../../query-engine/postprocess/results';
import { type DatasetAnswer, DatasetService, type DatasetStream } from '../dataset';
import { CardAccessService } from './card-access.service';
import { CardRunner, type CardRunOptions } from './card-runner.service';
import { parseJson } from '../../common/database/stored-json';

/** A metadata run reads one row: the columns are what it is for. */
const METADATA_ROWS = 1;
const METADATA_TIMEOUT_MS = 60_000;

/** What a download of a card writes besides the rows (see dataset/export/write-export.ts). */
export interface CardDownload {
  name: string;
  display: string;
  visualizationSettings: Record<string, unknown>;
  /** True when the run is the card's pivot run (rows tagged by `pivot-grouping`). */
  pivot: boolean;
  answer: DatasetAnswer | DatasetStream;
}

/**
 * A signed-in user's runs of saved questions (POST /api/card/:id/query, the pivot twin, downloads, and the dashcard
 * runs of the dashboard-queries module): the card read as the user may (CardAccessService), then run by CardRunner.
 * Also works out a query's result columns.
 */
@Injectable()
export class CardQueriesService {
  constructor(
    private readonly dataset: DatasetService,
    private readonly access: CardAccessService,
    private readonly runner: CardRunner,
  ) {}

  /** The columns of the query's result, from a run of it; null when it fails (the card then saves without). */
  async resultMetadata(caller: AuthUser, sent: unknown): Promise<unknown[] | null> {
    try {
      const result = await this.dataset.run(sent, caller, AbortSignal.timeout(METADATA_TIMEOUT_MS), {
        log: false,
        defaultMaxRows: METADATA_ROWS,
        context: 'question',
      });
      return result.status === 'completed' ? result.data.results_metadata.columns : null;
    } catch {
      return null;
    }
  }

  async run(caller: AuthUser, id: number, opts: CardRunOptions, signal: AbortSignal): Promise<DatasetAnswer | DatasetStream> {
    const { row } = await this.access.readable(caller, id);
    return this.runner.stream(caller, row, opts, signal);
  }

  /** A download of the card: its run (the pivot run when `pivot` and the card is a pivot table), name and settings. */
  async download(caller: AuthUser, id: number, opts: CardRunOptions & { pivot: boolean }, signal: AbortSignal): Promise<CardDownload> {
    const { row } = await this.access.readable(caller, id);
    const pivot = opts.pivot && row.display === 'pivot';
    const answer = pivot ? await this.runner.pivot(caller, row, opts, signal) : await this.runner.stream(caller, row, opts, signal);
    return { name: row.name, display: row.display, visualizationSettings: parseJson(row.visualization_settings, {}), pivot, answer };
  }

  async pivot(caller: AuthUser, id: number, opts: CardRunOptions, signal: AbortSignal): Promise<QueryResults | FailedResults> {
    const { row } = await this.access.readable(caller, id);
    return this.runner.pivot(caller, row, opts, signal);
  }
}
