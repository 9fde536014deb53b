import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { parseJson } from '../../common/database/stored-json';
import { ValidationError } from '../../common/errors/api-errors';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { writeResultJson } from '../../common/http/write-result-json';
import { MSG } from '../../common/validation/messages';
import type { CardRow } from '../../schema/card.rows';
import { CardRunner } from '../cards';
import { mapParameters } from '../dashboard-queries';
import {
  cardExportSpec,
  downloadContext,
  EXPORT_FORMATS,
  EXPORT_MAX_ROWS,
  type ExportFormat,
  parseDownloadRequest,
  writeExport,
} from '../dataset';
import { sharedDownload, SharedQueriesService, sharedResults, type SharedRun } from '../public-sharing';
import { cardOf, cardRunParameters, dashboardOf, dashboardRunValues } from './embed-grant';
import type { EmbedGrant } from './embed-token.guard';

/** Rows a preview shows at most (spec "Preview of embedding"). */
export const PREVIEW_MAX_ROWS = 2000;

export function exportFormat(v: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(v)) throw ValidationError.of('export-format', MSG.oneOf(EXPORT_FORMATS), v);
  return v as ExportFormat;
}

/**
 * The query runs of an embed: the token's and the viewer's values, checked against the whitelist, become the card's
 * parameters (or the dashboard's, mapped onto the dashcard's card), and the cards module's CardRunner runs them with
 * the token's grant, no user (context `embedded-question` / `embedded-dashboard`). Answers 202 with the trimmed result.
 */
@Injectable()
export class EmbedRunsService {
  constructor(
    private readonly shared: SharedQueriesService,
    private readonly runner: CardRunner,
  ) {}

  async card(grant: EmbedGrant, query: Record<string, unknown>, res: Response, opts: { pivot: boolean }): Promise<void> {
    const card = cardOf(grant);
    const run = { parameters: cardRunParameters(grant, query), ...this.run(grant, 'embedded-question') };
    const signal = abortOnDisconnect(res);
    const answer = opts.pivot ? await this.runner.pivot(grant, card, run, signal) : await this.runner.run(grant, card, run, signal);
    await writeResultJson(res, 202, sharedResults(answer));
  }

  async dashcard(
    grant: EmbedGrant,
    dashcardId: number,
    cardId: number,
    query: Record<string, unknown>,
    res: Response,
    opts: { pivot: boolean },
  ): Promise<void> {
    const values = dashboardRunValues(grant, query);
    const answer = await this.shared.runDashcard(
      grant,
      dashboardOf(grant),
      dashcardId,
      cardId,
      values,
      this.run(grant, 'embedded-dashboard'),
      abortOnDisconnect(res),
      opts.pivot,
    );
    await writeResultJson(res, 202, sharedResults(answer));
  }

  /**
   * GET /api/embed/card/:token/query/:export-format: the file on the downloads module's writer (csv, xlsx, json), or
   * the trimmed result JSON (`api`). The same parameter rules; `format_rows` and `pivot_results` as for other downloads.
   */
  async cardExport(grant: EmbedGrant, format: ExportFormat, query: Record<string, unknown>, res: Response): Promise<void> {
    const card = cardOf(grant);
    await this.download(grant, res, format, query, card, cardRunParameters(grant, query), 'embedded-question', null);
  }

  /** GET /api/embed/dashboard/:token/dashcard/:dashcard-id/card/:card-id/:export-format: a dashcard's card as a file. */
  async dashcardExport(
    grant: EmbedGrant,
    dashcardId: number,
    cardId: number,
    format: ExportFormat,
    query: Record<string, unknown>,
    res: Response,
  ): Promise<void> {
    const found = dashboardOf(grant);
    const values = dashboardRunValues(grant, query);
    const { dashcard, card } = await this.shared.dashcard(found, dashcardId, cardId);
    const id = Number(found.dashboard.id);
    const parameters = mapParameters(id, found.dashboard.parameters_list, dashcard.parameter_mappings, dashcard.card_id, cardId, values);
    const own = dashcard.card_id === cardId ? parseJson<Record<string, unknown>>(dashcard.row.visualization_settings, {}) : {};
    await this.download(grant, res, format, query, card, parameters, 'embedded-dashboard', id, own);
  }

  private async download(
    grant: EmbedGrant,
    res: Response,
    format: ExportFormat,
    query: Record<string, unknown>,
    card: CardRow,
    parameters: Array<Record<string, unknown>>,
    apiContext: string,
    dashboardId: number | null,
    dashcardSettings: Record<string, unknown> = {},
  ): Promise<void> {
    const request = parseDownloadRequest(format, { format_rows: query.format_rows, pivot_results: query.pivot_results });
    const signal = abortOnDisconnect(res);
    if (request.format === 'api') {
      res.status(200).json(sharedResults(await this.runner.run(grant, card, { parameters, context: apiContext, dashboardId }, signal)));
      return;
    }
    const run = { parameters, context: downloadContext(request.format, apiContext), maxRows: EXPORT_MAX_ROWS, dashboardId };
    const pivot = request.pivotResults && card.display === 'pivot';
    const answer = pivot ? await this.runner.pivot(grant, card, run, signal) : await this.runner.stream(grant, card, run, signal);
    const settings = { ...parseJson<Record<string, unknown>>(card.visualization_settings, {}), ...dashcardSettings };
    await writeExport(res, cardExportSpec(request, { name: card.name, visualizationSettings: settings, pivot }), sharedDownload(answer));
  }

  private run(grant: EmbedGrant, context: string): SharedRun {
    return { context, ...(grant.preview ? { maxRows: PREVIEW_MAX_ROWS } : {}) };
  }
}
