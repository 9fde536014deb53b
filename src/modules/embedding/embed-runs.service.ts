import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { NotFoundError, ValidationError } from '../../common/errors/api-errors';
import { writeResultJson } from '../../common/http/write-result-json';
import { MSG } from '../../common/validation/messages';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { SharedQueriesService, type SharedRun } from '../public-sharing/shared-queries.service';
import { sharedResults } from '../public-sharing/shared-results';
import { cardOf, cardRunParameters, dashboardOf, dashboardRunValues } from './embed-grant';
import type { EmbedGrant } from './embed-token.guard';

/** Rows a preview shows at most (spec "Preview of embedding"). */
export const PREVIEW_MAX_ROWS = 2000;

export const EXPORT_FORMATS = ['csv', 'api', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

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

  /** Downloads: to be wired onto the downloads module's export entry point. */
  async cardExport(grant: EmbedGrant, format: ExportFormat, query: Record<string, unknown>, res: Response): Promise<void> {
    if (format === 'api') return this.card(grant, query, res, { pivot: false });
    throw new NotFoundError();
  }

  async dashcardExport(grant: EmbedGrant, dashcardId: number, cardId: number, format: ExportFormat, query: Record<string, unknown>, res: Response): Promise<void> {
    if (format === 'api') return this.dashcard(grant, dashcardId, cardId, query, res, { pivot: false });
    throw new NotFoundError();
  }

  private run(grant: EmbedGrant, context: string): SharedRun {
    return { via: 'embed', context, ...(grant.preview ? { maxRows: PREVIEW_MAX_ROWS } : {}) };
  }
}
