import { Body, Controller, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { AcceptsForm } from '../../common/http/accepts-form';
import { abortOnDisconnect } from './dataset.controller';
import { DatasetService } from './dataset.service';
import { EXPORT_CONTEXT, EXPORT_MAX_ROWS, parseExportRequest } from './export/export-request';
import { writeExport } from './export/write-export';
import { PivotService } from './pivot.service';
import { normalizedOrError } from './query-body';

/**
 * POST /api/dataset/:export-format: an ad-hoc query as a download (csv, xlsx, json) or as result JSON (api).
 * Registered after DatasetController, whose literal routes (`native`, `pivot`, `duration`...) must match first.
 * With `pivot_results` a structured query with breakouts runs as POST /api/dataset/pivot (the detail rows and the
 * subtotal rows its `pivot_table.column_split` needs) and is laid out as the pivot table shows it (see
 * export/write-export.ts): row headers, a column per column-breakout value, "Totals for …", "Row totals", "Grand totals".
 */
@Controller('api/dataset')
export class DatasetExportController {
  constructor(
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
  ) {}

  @Post(':exportFormat')
  @Access('user')
  @AcceptsForm()
  async export(@Param('exportFormat') format: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    const request = parseExportRequest(format, body);
    const signal = abortOnDisconnect(res);
    // Permission errors (403) and invalid requests are thrown here, before anything of the file is written.
    const answer = request.pivotResults && hasBreakouts(request.query)
      ? await this.pivots.run({ ...request.query, constraints: { 'max-results': EXPORT_MAX_ROWS }, visualization_settings: request.visualizationSettings }, caller, signal, EXPORT_CONTEXT[request.format])
      : await this.dataset.stream(request.query, caller, signal, { context: EXPORT_CONTEXT[request.format], defaultMaxRows: EXPORT_MAX_ROWS });
    await writeExport(res, request, answer);
  }
}

/**
 * Only a structured query with breakouts has subtotals to add; anything else exports as it is (one that does not
 * normalize, too: the export answers its failure). Read from the normalized query, so MBQL 5 counts as well.
 */
function hasBreakouts(query: Record<string, unknown>): boolean {
  const normalized = normalizedOrError(query);
  if (normalized instanceof Error) return false;
  const breakout = normalized.type === 'query' ? normalized.query?.breakout : undefined;
  return Array.isArray(breakout) && breakout.length > 0;
}
