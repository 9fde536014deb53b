import { Controller, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { IdParam } from '../../common/validation/pipes';
import type { SentValue } from '../dashboard-queries/parameter-mapping';
import { DashboardsRepository } from '../dashboards/dashboards.repository';
import { DashcardActionsRegistry } from '../dashboards/dashcard-actions';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { PublicModel, type PublicDashboard } from './public-link.resolver';
import { SharedFieldsService } from './shared-fields.service';
import { SharedQueriesService, type SharedRun } from './shared-queries.service';
import { nonBlank, optionalPositiveInt, parametersParam } from './shared-request';
import { sharedResults } from './shared-results';
import { dashcardActionIds, sharedDashboardView } from './shared-views';

const RUN: SharedRun = { via: 'public', context: 'public-dashboard' };

/** Query-string keys of the params endpoints that are not other parameters' values. */
const NOT_CONSTRAINTS = new Set(['uuid', 'paramKey', 'query']);

/**
 * /api/public/dashboard/:uuid...: a publicly shared dashboard, its dashcards' results and its parameters' values
 * (chain filters: the other parameters' values in the query string, by parameter id). The guard has checked the
 * setting and the UUID and loaded the dashboard (unarchived).
 */
@Controller('api/public')
@PublicModel('dashboard')
export class PublicDashboardController {
  constructor(
    private readonly queries: SharedQueriesService,
    private readonly fields: SharedFieldsService,
    private readonly dashboards: DashboardsRepository,
    private readonly actions: DashcardActionsRegistry,
  ) {}

  @Get('dashboard/:uuid')
  @Access('public-sharing')
  async dashboard(@SharedObject() shared: PublicDashboard) {
    const found = shared.dashboard;
    const cards = await this.fields.dashboardCards(found);
    const [tabs, paramFields, actions] = await Promise.all([
      this.dashboards.tabs(Number(found.dashboard.id)),
      this.fields.dashboardFields(found, cards).then((ids) => this.fields.paramFields(ids)),
      this.actions.publicViews(dashcardActionIds(found)),
    ]);
    return sharedDashboardView(found, tabs, cards, paramFields, actions);
  }

  @Get('dashboard/:uuid/dashcard/:dashcardId/card/:cardId')
  @Access('public-sharing')
  @HttpCode(202)
  async query(
    @SharedObject() shared: PublicDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query('parameters') parameters: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    const values = parametersParam(parameters) as SentValue[];
    return sharedResults(await this.queries.runDashcard(shared.dashboard, dashcardId, cardId, values, RUN, abortOnDisconnect(res)));
  }

  @Get('pivot/dashboard/:uuid/dashcard/:dashcardId/card/:cardId')
  @Access('public-sharing')
  @HttpCode(202)
  async pivot(
    @SharedObject() shared: PublicDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query('parameters') parameters: unknown,
    @Res({ passthrough: true }) res: Response,
  ) {
    const values = parametersParam(parameters) as SentValue[];
    return sharedResults(await this.queries.runDashcard(shared.dashboard, dashcardId, cardId, values, RUN, abortOnDisconnect(res), true));
  }

  @Get('dashboard/:uuid/field/:fieldId/values')
  @Access('public-sharing')
  async values(@SharedObject() shared: PublicDashboard, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.fields.values(await this.fields.dashboardFields(shared.dashboard), fieldId);
  }

  @Get('dashboard/:uuid/field/:fieldId/search/:searchFieldId')
  @Access('public-sharing')
  async search(
    @SharedObject() shared: PublicDashboard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchFieldId: number,
    @Query('value') value: unknown,
    @Query('limit') limit: unknown,
  ) {
    const allowed = await this.fields.dashboardFields(shared.dashboard);
    return this.fields.search(allowed, fieldId, searchFieldId, nonBlank('value', value), optionalPositiveInt('limit', limit));
  }

  @Get('dashboard/:uuid/field/:fieldId/remapping/:remappedId')
  @Access('public-sharing')
  async remapping(
    @SharedObject() shared: PublicDashboard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query('value') value: unknown,
  ) {
    return this.fields.remapping(await this.fields.dashboardFields(shared.dashboard), fieldId, remappedId, nonBlank('value', value));
  }

  @Get('dashboard/:uuid/params/:paramKey/values')
  @Access('public-sharing')
  paramValues(@SharedObject() shared: PublicDashboard, @Param('paramKey') key: string, @Query() given: Record<string, unknown>) {
    return this.fields.dashboardParamValues(shared.dashboard, nonBlank('param-key', key), constraints(given));
  }

  @Get('dashboard/:uuid/params/:paramKey/search/:query')
  @Access('public-sharing')
  paramSearch(@SharedObject() shared: PublicDashboard, @Param('paramKey') key: string, @Param('query') query: string, @Query() given: Record<string, unknown>) {
    return this.fields.dashboardParamValues(shared.dashboard, nonBlank('param-key', key), constraints(given), nonBlank('query', query));
  }
}

function constraints(given: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(given ?? {}).filter(([k]) => !NOT_CONSTRAINTS.has(k)));
}
