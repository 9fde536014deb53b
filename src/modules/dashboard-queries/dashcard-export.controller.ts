import { Body, Controller, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { AcceptsForm } from '../../common/http/accepts-form';
import { IdParam } from '../../common/validation/pipes';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest } from '../dataset/export/export-request';
import { writeExport } from '../dataset/export/write-export';
import { DashboardQueriesService } from './dashboard-queries.service';

/**
 * POST /api/dashboard/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query/:export-format: a dashcard's card as
 * a file, with the dashboard's parameter values (`parameters`, `[{id, value}]`) mapped to the card as the dashcard
 * query maps them, and the dashcard's visualization settings over the card's. Logged with card and dashboard ids.
 */
@Controller('api/dashboard')
export class DashcardExportController {
  constructor(private readonly queries: DashboardQueriesService) {}

  @Post(':dashboardId/dashcard/:dashcardId/card/:cardId/query/:exportFormat')
  @Access('user')
  @AcceptsForm()
  async export(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Param('exportFormat') format: string,
    @Body() body: unknown,
    @CurrentUser() caller: AuthUser,
    @Res() res: Response,
  ) {
    const request = parseDownloadRequest(format, body, true);
    const opts = { context: downloadContext(request.format, 'dashboard'), maxRows: EXPORT_MAX_ROWS, pivot: request.pivotResults };
    const run = { dashboardId, dashcardId, cardId, parameters: request.parameters };
    const card = await this.queries.download(caller, run, opts, abortOnDisconnect(res));
    await writeExport(res, cardExportSpec(request, card), card.answer);
  }
}
