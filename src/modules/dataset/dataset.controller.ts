import { Body, Controller, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { writeResultJson } from '../../common/http/write-result-json';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { MSG } from '../../common/validation/messages';
import { DatasetMetadataService } from './dataset-metadata.service';
import { ParameterSearchQuery, ParameterValuesDto } from './dataset.dto';
import { DatasetService } from './dataset.service';
import { ParameterValuesService } from './parameter-values.service';
import { PivotService } from './pivot.service';

@Controller('api/dataset')
export class DatasetController {
  constructor(
    private readonly dataset: DatasetService,
    private readonly pivots: PivotService,
    private readonly metadata: DatasetMetadataService,
    private readonly parameterValues: ParameterValuesService,
  ) {}

  /** Runs a query: 202 with the results, also when the query failed (COMPAT.md "Query results"). */
  @Post()
  @Access('user')
  async run(@Body() body: unknown, @CurrentUser() caller: AuthUser, @Res() res: Response) {
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
  pivot(@Body() body: unknown, @CurrentUser() caller: AuthUser, @Res({ passthrough: true }) res: Response) {
    return this.pivots.run(body, caller, abortOnDisconnect(res));
  }

  @Post('query_metadata')
  @Access('user')
  @HttpCode(200)
  queryMetadata(@Body() body: unknown, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, body);
  }

  @Post('parameter/values')
  @Access('user')
  @HttpCode(200)
  parameterValuesOf(@Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined);
  }

  @Post('parameter/search/:query')
  @Access('user')
  @HttpCode(200)
  searchParameterValues(@Param('query') query: string, @Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined, nonBlank(query));
  }

  @Post('parameter/search')
  @Access('user')
  @HttpCode(200)
  searchParameterValuesByQuery(@Query() q: ParameterSearchQuery, @Body() body: ParameterValuesDto, @CurrentUser() caller: AuthUser) {
    return this.parameterValues.values(caller, body.parameter, body.field_ids ?? undefined, nonBlank(q.query));
  }
}

function nonBlank(query: string | undefined): string {
  if (typeof query !== 'string' || !/\S/.test(query)) throw ValidationError.of('query', MSG.nonBlank, query);
  return query;
}

/** Aborts when the client goes away before the answer is written: the query is then cancelled on the database. */
export function abortOnDisconnect(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}
