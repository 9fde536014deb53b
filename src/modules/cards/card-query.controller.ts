import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { AcceptsForm } from '../../common/http/accepts-form';
import { writeResultJson } from '../../common/http/write-result-json';
import { IdParam } from '../../common/validation/pipes';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest, writeExport } from '../dataset';
import { RequestAdmission } from '../warehouse';
import { CardQueriesService } from './card-queries.service';
import { CardQueryDto } from './cards.dto';

/** A saved card's query, run: as result JSON, as its pivot table, or downloaded as a file. */
@Controller('api/card')
export class CardQueryController {
  constructor(
    private readonly queries: CardQueriesService,
    private readonly admission: RequestAdmission,
  ) {}

  /** 202 with the results, also when the query failed: the failure is in the body (`status: "failed"`, `error`). */
  @Post(':cardId/query')
  @Access('user')
  async query(
    @Param('cardId', IdParam('card-id')) id: number,
    @Body() body: CardQueryDto,
    @CurrentUser() caller: AuthUser,
    @Res() res: Response,
  ) {
    const opts = { parameters: body.parameters, ignoreCache: body.ignore_cache === true, dashboardId: body.dashboard_id ?? null };
    await this.admission.admit(caller.id, res);
    await writeResultJson(res, 202, await this.queries.run(caller, id, opts, abortOnDisconnect(res)));
  }

  @Post('pivot/:cardId/query')
  @Access('user')
  @HttpCode(202)
  async pivot(
    @Param('cardId', IdParam('card-id')) id: number,
    @Body() body: CardQueryDto,
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    await this.admission.admit(caller.id, res);
    return this.queries.pivot(caller, id, { parameters: body.parameters, ignoreCache: body.ignore_cache === true }, abortOnDisconnect(res));
  }

  /**
   * POST /api/card/:card-id/query/:export-format: the card's result as a file (csv, xlsx, json) or as result JSON
   * (api), posted as a form by Metabase's frontend (`parameters` a JSON string, `format_rows` and `pivot_results`
   * bool-strs) or as JSON. The card's settings shape the file (see dataset/export/write-export.ts); with
   * `pivot_results` a pivot card is laid out as its pivot table.
   */
  @Post(':cardId/query/:exportFormat')
  @Access('user')
  @AcceptsForm()
  async export(
    @Param('cardId', IdParam('card-id')) id: number,
    @Param('exportFormat') format: string,
    @Body() body: unknown,
    @CurrentUser() caller: AuthUser,
    @Res() res: Response,
  ) {
    const request = parseDownloadRequest(format, body);
    const opts = {
      parameters: request.parameters,
      context: downloadContext(request.format, 'question'),
      maxRows: EXPORT_MAX_ROWS,
      pivot: request.pivotResults,
    };
    // A missing card (404), refused access (403) or a bad parameter are thrown here, before anything of the file.
    const card = await this.queries.download(caller, id, opts, abortOnDisconnect(res));
    await writeExport(res, cardExportSpec(request, card), card.answer);
  }
}
