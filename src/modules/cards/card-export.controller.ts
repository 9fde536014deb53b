import { Body, Controller, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { AcceptsForm } from '../../common/http/accepts-form';
import { IdParam } from '../../common/validation/pipes';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest } from '../dataset/export/export-request';
import { writeExport } from '../dataset/export/write-export';
import { CardQueriesService } from './card-queries.service';

/**
 * POST /api/card/:card-id/query/:export-format: the card's result as a file (csv, xlsx, json) or as result JSON
 * (api), posted as a form by Metabase's frontend (`parameters` a JSON string, `format_rows` and `pivot_results`
 * bool-strs) or as JSON. The card's settings shape the file (see dataset/export/write-export.ts); with
 * `pivot_results` a pivot card is laid out as its pivot table.
 */
@Controller('api/card')
export class CardExportController {
  constructor(private readonly queries: CardQueriesService) {}

  @Post(':cardId/query/:exportFormat')
  @Access('user')
  @AcceptsForm()
  async export(@Param('cardId', IdParam('card-id')) id: number, @Param('exportFormat') format: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    const request = parseDownloadRequest(format, body);
    const opts = { parameters: request.parameters, context: downloadContext(request.format, 'question'), maxRows: EXPORT_MAX_ROWS, pivot: request.pivotResults };
    // A missing card (404), refused access (403) or a bad parameter are thrown here, before anything of the file.
    const card = await this.queries.download(caller, id, opts, abortOnDisconnect(res));
    await writeExport(res, cardExportSpec(request, card), card.answer);
  }
}
