import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { AcceptsForm } from '../../common/http/accepts-form';
import { writeResultJson } from '../../common/http/write-result-json';
import { IdParam } from '../../common/validation/pipes';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest, writeExport } from '../dataset';
import { DashcardQueryDto } from './dashboard-queries.dto';
import { RequestAdmission } from '../warehouse';
import { DashboardQueriesService } from './dashboard-queries.service';

/** A dashcard's card run in its dashboard's context: as result JSON, as its pivot table, or downloaded as a file. */
@Controller('api/dashboard')
export class DashcardQueryController {
  constructor(
    private readonly queries: DashboardQueriesService,
    private readonly admission: RequestAdmission,
  ) {}

  /** 202 with the results, also when the query failed, as the card query: the failure is in the body. */
  @Post(':dashboardId/dashcard/:dashcardId/card/:cardId/query')
  @Access('user')
  async query(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Body() body: DashcardQueryDto,
    @CurrentUser() caller: AuthUser,
    @Res() res: Response,
  ) {
    const run = { dashboardId, dashcardId, cardId, parameters: body.parameters, ignoreCache: body.ignore_cache === true };
    await this.admission.admit(caller.id, res);
    await writeResultJson(res, 202, await this.queries.run(caller, run, abortOnDisconnect(res)));
  }

  @Post('pivot/:dashboardId/dashcard/:dashcardId/card/:cardId/query')
  @Access('user')
  @HttpCode(202)
  async pivot(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Body() body: DashcardQueryDto,
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.admission.admit(caller.id, res);
    return this.queries.pivot(caller, { dashboardId, dashcardId, cardId, parameters: body.parameters }, abortOnDisconnect(res));
  }

  /**
   * POST /api/dashboard/:dashboard-id/dashcard/:dashcard-id/card/:card-id/query/:export-format: a dashcard's card as
   * a file, with the dashboard's parameter values (`parameters`, `[{id, value}]`) mapped to the card as the dashcard
   * query maps them, and the dashcard's visualization settings over the card's. Logged with card and dashboard ids.
   */
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
