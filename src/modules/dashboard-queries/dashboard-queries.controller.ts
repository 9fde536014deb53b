import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { ValidationError } from '../../common/errors/api-errors';
import { writeResultJson } from '../../common/http/write-result-json';
import { MSG } from '../../common/validation/messages';
import { IdParam } from '../../common/validation/pipes';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { DashboardParamsService } from './dashboard-params.service';
import { DashcardQueryDto, ValidFilterFieldsQuery } from './dashboard-queries.dto';
import { DashboardQueriesService } from './dashboard-queries.service';

const nonBlank = (name: string, v: string): string => {
  if (typeof v !== 'string' || !/\S/.test(v)) throw ValidationError.of(name, MSG.nonBlank, v);
  return v;
};

/** Cards run in a dashboard's context, and the values of a dashboard's parameters (chain filters included). */
@Controller('api/dashboard')
export class DashboardQueriesController {
  constructor(
    private readonly queries: DashboardQueriesService,
    private readonly params: DashboardParamsService,
  ) {}

  @Get('params/valid-filter-fields')
  @Access('user')
  validFilterFields(@Query() q: ValidFilterFieldsQuery, @CurrentUser() caller: AuthUser) {
    return this.params.validFilterFields(caller, q.filtered, q.filtering ?? []);
  }

  @Get(':id/params/:paramKey/values')
  @Access('user')
  values(@Param('id', IdParam()) id: number, @Param('paramKey') key: string, @Query() others: Record<string, unknown>, @CurrentUser() caller: AuthUser) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), others);
  }

  @Get(':id/params/:paramKey/search/:query')
  @Access('user')
  search(@Param('id', IdParam()) id: number, @Param('paramKey') key: string, @Param('query') query: string, @Query() others: Record<string, unknown>, @CurrentUser() caller: AuthUser) {
    return this.params.valuesOf(caller, id, nonBlank('param-key', key), others, nonBlank('query', query));
  }

  /** 202 with the results, also when the query failed, as the card query (COMPAT.md "Query results"). */
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
    await writeResultJson(res, 202, await this.queries.run(caller, run, abortOnDisconnect(res)));
  }

  @Post('pivot/:dashboardId/dashcard/:dashcardId/card/:cardId/query')
  @Access('user')
  @HttpCode(202)
  pivot(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Body() body: DashcardQueryDto,
    @CurrentUser() caller: AuthUser,
    @Res({ passthrough: true }) res: Response,
  ) {
    return this.queries.pivot(caller, { dashboardId, dashcardId, cardId, parameters: body.parameters }, abortOnDisconnect(res));
  }
}
