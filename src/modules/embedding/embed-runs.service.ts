import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { parseJson } from '../../common/database/stored-json';
import { ValidationError } from '../../common/errors/api-errors';
import { writeResultJson } from '../../common/http/write-result-json';
import { MSG } from '../../common/validation/messages';
import type { CardRow } from '../cards/cards.repository';
import { mapParameters } from '../dashboard-queries/parameter-mapping';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { cardExportSpec, downloadContext, EXPORT_FORMATS, EXPORT_MAX_ROWS, parseDownloadRequest, type ExportFormat } from '../dataset/export/export-request';
import { writeExport } from '../dataset/export/write-export';
import { SharedQueriesService, type SharedRun } from '../public-sharing/shared-queries.service';
import { sharedDownload, sharedResults } from '../public-sharing/shared-results';
import { cardOf, cardRunParameters, dashboardOf, dashboardRunValues } from './embed-grant';
import type { EmbedGrant } from './embed-token.guard';

/** Rows a preview shows at most (spec "Preview of embedding"). */
export const PREVIEW_MAX_ROWS = 2000;


export function exportFormat(v: string): ExportFormat {
  if (!(EXPORT_FORMATS as readonly string[]).includes(v)) throw ValidationError.of('export-format', MSG.oneOf(EXPORT_FORMATS), v);
  return v as ExportFormat;
}

export function nonBlank(name: string, v: string): string {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
}

/**
 * The query runs of an embed: the token's and the viewer's values, checked against the whitelist, become the card's
 * parameters (or the dashboard's, mapped onto the dashcard's card), and the shared runner of the public-sharing module
 * runs them with no user (context `embedded-question` / `embedded-dashboard`). Answers 202 with the trimmed result.
 */
@Injectable()
export class EmbedRunsService {
  constructor(private readonly shared: SharedQueriesService) {}

  async card(grant: EmbedGrant, query: Record<string, unknown>, res: Response, opts: { pivot: boolean }): Promise<void> {
    const card = cardOf(grant);
    const parameters = cardRunParameters(grant, query);
    const run = this.run(grant, 'embedded-question');
    const signal = abortOnDisconnect(res);
    const answer = opts.pivot ? await this.shared.pivotCard(card, parameters, run, signal) : await this.shared.runCard(card, parameters, run, signal);
    await writeResultJson(res, 202, sharedResults(answer));
  }

  async dashcard(grant: EmbedGrant, dashcardId: number, cardId: number, query: Record<string, unknown>, res: Response, opts: { pivot: boolean }): Promise<void> {
    const values = dashboardRunValues(grant, query);
    const answer = await this.shared.runDashcard(dashboardOf(grant), dashcardId, cardId, values, this.run(grant, 'embedded-dashboard'), abortOnDisconnect(res), opts.pivot);
    await writeResultJson(res, 202, sharedResults(answer));
  }

  /**
   * GET /api/embed/card/:token/query/:export-format: the file on the downloads module's writer (csv, xlsx, json), or
   * the trimmed result JSON (`api`). The same parameter rules; `format_rows` and `pivot_results` as for other downloads.
   */
  async cardExport(grant: EmbedGrant, format: ExportFormat, query: Record<string, unknown>, res: Response): Promise<void> {
    const card = cardOf(grant);
    await this.download(res, format, query, card, cardRunParameters(grant, query), 'embedded-question', null);
  }

  /** GET /api/embed/dashboard/:token/dashcard/:dashcard-id/card/:card-id/:export-format: a dashcard's card as a file. */
  async dashcardExport(grant: EmbedGrant, dashcardId: number, cardId: number, format: ExportFormat, query: Record<string, unknown>, res: Response): Promise<void> {
    const found = dashboardOf(grant);
    const values = dashboardRunValues(grant, query);
    const { dashcard, card } = await this.shared.dashcard(found, dashcardId, cardId);
    const id = Number(found.dashboard.id);
    const parameters = mapParameters(id, found.dashboard.parameters_list, dashcard.parameter_mappings, dashcard.card_id, cardId, values);
    const own = dashcard.card_id === cardId ? parseJson<Record<string, unknown>>(dashcard.row.visualization_settings, {}) : {};
    await this.download(res, format, query, card, parameters, 'embedded-dashboard', id, own);
  }

  private async download(
    res: Response,
    format: ExportFormat,
    query: Record<string, unknown>,
    card: CardRow,
    parameters: unknown[],
    apiContext: string,
    dashboardId: number | null,
    dashcardSettings: Record<string, unknown> = {},
  ): Promise<void> {
    const request = parseDownloadRequest(format, { format_rows: query.format_rows, pivot_results: query.pivot_results });
    const signal = abortOnDisconnect(res);
    if (request.format === 'api') {
      res.status(200).json(sharedResults(await this.shared.runCard(card, parameters, { via: 'embed', context: apiContext }, signal, dashboardId)));
      return;
    }
    const run: SharedRun = { via: 'embed', context: downloadContext(request.format, apiContext), maxRows: EXPORT_MAX_ROWS };
    const pivot = request.pivotResults && card.display === 'pivot';
    const answer = pivot ? await this.shared.pivotCard(card, parameters, run, signal, dashboardId) : await this.shared.streamCard(card, parameters, run, signal, dashboardId);
    const settings = { ...parseJson<Record<string, unknown>>(card.visualization_settings, {}), ...dashcardSettings };
    await writeExport(res, cardExportSpec(request, { name: card.name, visualizationSettings: settings, pivot }), sharedDownload(answer));
  }

  private run(grant: EmbedGrant, context: string): SharedRun {
    return { via: 'embed', context, ...(grant.preview ? { maxRows: PREVIEW_MAX_ROWS } : {}) };
  }
}
