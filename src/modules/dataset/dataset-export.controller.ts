import { Body, Controller, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { abortOnDisconnect } from './dataset.controller';
import { DatasetService } from './dataset.service';
import { EXPORT_CONTEXT, EXPORT_MAX_ROWS, parseExportRequest } from './export/export-request';
import { writeExport } from './export/write-export';

/**
 * POST /api/dataset/:export-format: an ad-hoc query as a download (csv, xlsx, json) or as result JSON (api).
 * Registered after DatasetController, whose literal routes (`native`, `pivot`, `duration`...) must match first.
 * `pivot_results` is validated but pivoted exports are not built yet: the rows come as the query answers them.
 */
@Controller('api/dataset')
export class DatasetExportController {
  constructor(private readonly dataset: DatasetService) {}

  @Post(':exportFormat')
  @Access('user')
  async export(@Param('exportFormat') format: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    const request = parseExportRequest(format, body);
    // Permission errors (403) and invalid requests are thrown here, before anything of the file is written.
    const answer = await this.dataset.stream(request.query, caller, abortOnDisconnect(res), {
      context: EXPORT_CONTEXT[request.format],
      defaultMaxRows: EXPORT_MAX_ROWS,
    });
    await writeExport(res, request, answer);
  }
}
