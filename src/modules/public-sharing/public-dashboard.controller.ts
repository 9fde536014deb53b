import { Controller, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { IdParam, NonBlankParam } from '../../common/validation/pipes';
import type { SentValue } from '../dashboard-queries';
import { dashcardActions } from '../dashboards';
import { EventBus } from '../../common/events/event-bus';
import { remappingValue } from '../cards';
import { RemappingQuery, SearchQuery } from '../fields';
import { PublicModel, type PublicDashboard } from './public-link.resolver';
import { SharedFieldsService } from './shared-fields.service';
import { SharedQueriesService, type SharedRun } from './shared-queries.service';
import { SharedQueryParams } from './shared.dto';
import { sharedResults } from './shared-results';
import { dashcardActionIds, sharedDashboardView } from './shared-views';

const RUN: SharedRun = { context: 'public-dashboard' };

/** Query-string keys of the params endpoints that are not other parameters' values. */
const NOT_CONSTRAINTS = new Set(['uuid', 'paramKey', 'query']);

/**
 * /api/public/dashboard/:uuid...: a publicly shared dashboard, its dashcards' results and its parameters' values
 * (chain filters: the other parameters' values in the query string, by parameter id). The guard has checked the
 * setting and the UUID and loaded the dashboard (unarchived); every run and look-up reads with the link's grant.
 */
@Controller('api/public')
@PublicModel('dashboard')
export class PublicDashboardController {
  constructor(
    private readonly queries: SharedQueriesService,
    private readonly fields: SharedFieldsService,
    private readonly bus: EventBus,
  ) {}

  @Get('dashboard/:uuid')
  @Access('public-sharing')
  async dashboard(@SharedObject() shared: PublicDashboard) {
    const found = shared.dashboard;
    const cards = await this.fields.dashboardCards(found);
    const [paramFields, actions] = await Promise.all([
      this.fields.dashboardFields(found, cards).then((ids) => this.fields.paramFields(ids)),
      dashcardActions(this.bus, dashcardActionIds(found), 'public'),
    ]);
    return sharedDashboardView(found, found.tabs, cards, paramFields, actions);
  }

  @Get('dashboard/:uuid/dashcard/:dashcardId/card/:cardId')
  @Access('public-sharing')
  @HttpCode(202)
  async query(
    @SharedObject() shared: PublicDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query() q: SharedQueryParams,
    @Res({ passthrough: true }) res: Response,
  ) {
    const values = (q.parameters ?? []) as SentValue[];
    return sharedResults(await this.queries.runDashcard(shared, shared.dashboard, dashcardId, cardId, values, RUN, abortOnDisconnect(res)));
  }

  @Get('pivot/dashboard/:uuid/dashcard/:dashcardId/card/:cardId')
  @Access('public-sharing')
  @HttpCode(202)
  async pivot(
    @SharedObject() shared: PublicDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query() q: SharedQueryParams,
    @Res({ passthrough: true }) res: Response,
  ) {
    const values = (q.parameters ?? []) as SentValue[];
    const signal = abortOnDisconnect(res);
    return sharedResults(await this.queries.runDashcard(shared, shared.dashboard, dashcardId, cardId, values, RUN, signal, true));
  }

  @Get('dashboard/:uuid/field/:fieldId/values')
  @Access('public-sharing')
  async values(@SharedObject() shared: PublicDashboard, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.fields.values(shared, await this.fields.dashboardFields(shared.dashboard), fieldId);
  }

  @Get('dashboard/:uuid/field/:fieldId/search/:searchFieldId')
  @Access('public-sharing')
  async search(
    @SharedObject() shared: PublicDashboard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchFieldId: number,
    @Query() q: SearchQuery,
  ) {
    const allowed = await this.fields.dashboardFields(shared.dashboard);
    return this.fields.search(shared, allowed, fieldId, searchFieldId, q.value, q.limit ?? undefined);
  }

  @Get('dashboard/:uuid/field/:fieldId/remapping/:remappedId')
  @Access('public-sharing')
  async remapping(
    @SharedObject() shared: PublicDashboard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query() q: RemappingQuery,
  ) {
    return this.fields.remapping(shared, await this.fields.dashboardFields(shared.dashboard), fieldId, remappedId, q.value);
  }

  @Get('dashboard/:uuid/params/:paramKey/values')
  @Access('public-sharing')
  paramValues(
    @SharedObject() shared: PublicDashboard,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Query() given: Record<string, unknown>,
  ) {
    return this.fields.dashboardParamValues(shared, shared.dashboard, key, constraints(given));
  }

  @Get('dashboard/:uuid/params/:paramKey/remapping')
  @Access('public-sharing')
  paramRemapping(
    @SharedObject() shared: PublicDashboard,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Query('value') value: unknown,
  ) {
    return this.fields.dashboardParamRemapping(shared, shared.dashboard, key, remappingValue(value));
  }

  @Get('dashboard/:uuid/params/:paramKey/search/:query')
  @Access('public-sharing')
  paramSearch(
    @SharedObject() shared: PublicDashboard,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Param('query', NonBlankParam('query')) query: string,
    @Query() given: Record<string, unknown>,
  ) {
    return this.fields.dashboardParamValues(shared, shared.dashboard, key, constraints(given), query);
  }
}

function constraints(given: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(given ?? {}).filter(([k]) => !NOT_CONSTRAINTS.has(k)));
}
