import { Body, Controller, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { AcceptsForm } from '../../common/http/accepts-form';
import { writeResultJson } from '../../common/http/write-result-json';
import { RequestAdmission } from '../warehouse';
import { DatasetMetadataService } from './dataset-metadata.service';
import { DatasetService } from './dataset.service';
import { EXPORT_CONTEXT, EXPORT_MAX_ROWS, parseExportRequest } from './export/export-request';
import { writeExport } from './export/write-export';
import { PivotService } from './pivot.service';
import { normalizedOrError } from './query-body';

/** Ad-hoc queries: run, pivoted, as SQL, their metadata and their past duration, and downloaded as a file. */
@Controller('api/dataset')
export class DatasetController {
  constructor(
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
    private readonly metadata: DatasetMetadataService,
    private readonly admission: RequestAdmission,
  ) {}

  /** Runs a query: 202 with the results, also when the query failed (as Metabase: the failure is in the body). */
  @Post()
  @Access('user')
  async run(@Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    await this.admission.admit(caller.id, res);
    await writeResultJson(res, 202, await this.dataset.stream(body, caller, abortOnDisconnect(res)));
  }

  /** The average running time (ms) of this query's previous runs: `{average}`, 0 when it never ran (Metabase v0.46). */
  @Post('duration')
  @Access('user')
  @HttpCode(200)
  duration(@Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.dataset.duration(body, caller);
  }

  /**
   * The SQL of a query: `{database, query, pretty?}`, or the dataset query itself with `pretty` (MBQL 5 clients).
   * Not a DTO: an MBQL 5 body's keys (`lib/type`, `stages`) are the query's; query-body.ts checks it as every query endpoint.
   */
  @Post('native')
  @Access('user')
  @HttpCode(200)
  native(@Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.dataset.native(body, caller);
  }

  /** The pivot table of an MBQL query: detail rows and subtotal rows, tagged by `pivot-grouping`. 202 like run(). */
  @Post('pivot')
  @Access('user')
  @HttpCode(202)
  async pivot(@Body() body: unknown, @CurrentUser() caller: AuthUser, @Res({ passthrough: true }) res: Response) {
    await this.admission.admit(caller.id, res);
    return this.pivots.run(body, caller, abortOnDisconnect(res));
  }

  @Post('query_metadata')
  @Access('user')
  @HttpCode(200)
  queryMetadata(@Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, body);
  }

  /**
   * POST /api/dataset/:export-format: an ad-hoc query as a download (csv, xlsx, json) or as result JSON (api).
   * With `pivot_results` a structured query with breakouts runs as POST /api/dataset/pivot (the detail rows and the
   * subtotal rows its `pivot_table.column_split` needs) and is laid out as the pivot table shows it (see
   * export/write-export.ts): row headers, a column per column-breakout value, "Totals for …", "Row totals", "Grand totals".
   */
  @Post(':exportFormat')
  @Access('user')
  @AcceptsForm()
  async export(@Param('exportFormat') format: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
    const request = parseExportRequest(format, body);
    const signal = abortOnDisconnect(res);
    // Permission errors (403) and invalid requests are thrown here, before anything of the file is written.
    const answer =
      request.pivotResults && hasBreakouts(request.query)
        ? await this.pivots.run(
            { ...request.query, constraints: { 'max-results': EXPORT_MAX_ROWS }, visualization_settings: request.visualizationSettings },
            caller,
            signal,
            EXPORT_CONTEXT[request.format],
          )
        : await this.dataset.stream(request.query, caller, signal, {
            context: EXPORT_CONTEXT[request.format],
            defaultMaxRows: EXPORT_MAX_ROWS,
          });
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
