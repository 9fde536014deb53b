import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { IdParam, NonBlankParam } from '../../common/validation/pipes';
import { remappingValue } from '../cards';
import { RemappingQuery, SearchQuery } from '../fields';
import { EmbedLookupsService } from './embed-lookups.service';
import { EmbedRunsService, exportFormat } from './embed-runs.service';
import { EmbedOf, type EmbedGrant } from './embed-token.guard';
import { EmbeddingService } from './embedding.service';

type Viewer = Record<string, unknown>;

/**
 * `/api/embed/...`: questions and dashboards authorized by a signed token in the path (EmbedTokenGuard verifies it
 * and loads the object before any of these runs). Viewer values come as `?slug=value` or `parameters`.
 */
@Controller('api/embed')
@Access('embed')
export class EmbedController {
  constructor(
    private readonly embedding: EmbeddingService,
    private readonly runs: EmbedRunsService,
    private readonly lookups: EmbedLookupsService,
  ) {}

  @Get('card/:token')
  @EmbedOf('question')
  card(@SharedObject() grant: EmbedGrant) {
    return this.embedding.card(grant);
  }

  @Get('card/:token/query')
  @EmbedOf('question')
  cardQuery(@SharedObject() grant: EmbedGrant, @Query() q: Viewer, @Res() res: Response) {
    return this.runs.card(grant, q, res, { pivot: false });
  }

  @Get('card/:token/query/:exportFormat')
  @EmbedOf('question')
  cardExport(@SharedObject() grant: EmbedGrant, @Param('exportFormat') format: string, @Query() q: Viewer, @Res() res: Response) {
    return this.runs.cardExport(grant, exportFormat(format), q, res);
  }

  @Get('card/:token/field/:fieldId/values')
  @EmbedOf('question')
  cardFieldValues(@SharedObject() grant: EmbedGrant, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.lookups.values(grant, fieldId);
  }

  @Get('card/:token/field/:fieldId/search/:searchFieldId')
  @EmbedOf('question')
  cardFieldSearch(
    @SharedObject() grant: EmbedGrant,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchId: number,
    @Query() q: SearchQuery,
  ) {
    return this.lookups.search(grant, fieldId, searchId, q.value, q.limit ?? undefined);
  }

  @Get('card/:token/field/:fieldId/remapping/:remappedId')
  @EmbedOf('question')
  cardFieldRemapping(
    @SharedObject() grant: EmbedGrant,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query() q: RemappingQuery,
  ) {
    return this.lookups.remapping(grant, fieldId, remappedId, q.value);
  }

  @Get('card/:token/params/:paramKey/remapping')
  @EmbedOf('question')
  cardParamRemapping(
    @SharedObject() grant: EmbedGrant,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Query('value') value: unknown,
  ) {
    return this.lookups.cardParamRemapping(grant, key, remappingValue(value));
  }

  @Get('dashboard/:token')
  @EmbedOf('dashboard')
  dashboard(@SharedObject() grant: EmbedGrant) {
    return this.embedding.dashboard(grant);
  }

  @Get('dashboard/:token/dashcard/:dashcardId/card/:cardId')
  @EmbedOf('dashboard')
  dashcardQuery(
    @SharedObject() grant: EmbedGrant,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query() q: Viewer,
    @Res() res: Response,
  ) {
    return this.runs.dashcard(grant, dashcardId, cardId, q, res, { pivot: false });
  }

  @Get('dashboard/:token/dashcard/:dashcardId/card/:cardId/:exportFormat')
  @EmbedOf('dashboard')
  dashcardExport(
    @SharedObject() grant: EmbedGrant,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Param('exportFormat') format: string,
    @Query() q: Viewer,
    @Res() res: Response,
  ) {
    return this.runs.dashcardExport(grant, dashcardId, cardId, exportFormat(format), q, res);
  }

  @Get('dashboard/:token/field/:fieldId/values')
  @EmbedOf('dashboard')
  dashboardFieldValues(@SharedObject() grant: EmbedGrant, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.lookups.values(grant, fieldId);
  }

  @Get('dashboard/:token/field/:fieldId/search/:searchFieldId')
  @EmbedOf('dashboard')
  dashboardFieldSearch(
    @SharedObject() grant: EmbedGrant,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchId: number,
    @Query() q: SearchQuery,
  ) {
    return this.lookups.search(grant, fieldId, searchId, q.value, q.limit ?? undefined);
  }

  @Get('dashboard/:token/field/:fieldId/remapping/:remappedId')
  @EmbedOf('dashboard')
  dashboardFieldRemapping(
    @SharedObject() grant: EmbedGrant,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query() q: RemappingQuery,
  ) {
    return this.lookups.remapping(grant, fieldId, remappedId, q.value);
  }

  @Get('dashboard/:token/params/:paramKey/values')
  @EmbedOf('dashboard')
  paramValues(@SharedObject() grant: EmbedGrant, @Param('paramKey', NonBlankParam('param-key')) key: string, @Query() q: Viewer) {
    return this.lookups.paramValues(grant, key, q);
  }

  @Get('dashboard/:token/params/:paramKey/search/:prefix')
  @EmbedOf('dashboard')
  paramSearch(
    @SharedObject() grant: EmbedGrant,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Param('prefix', NonBlankParam('prefix')) prefix: string,
    @Query() q: Viewer,
  ) {
    return this.lookups.paramValues(grant, key, q, prefix);
  }

  @Get('dashboard/:token/params/:paramKey/remapping')
  @EmbedOf('dashboard')
  paramRemapping(
    @SharedObject() grant: EmbedGrant,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Query('value') value: unknown,
  ) {
    return this.lookups.dashboardParamRemapping(grant, key, remappingValue(value));
  }

  @Get('pivot/card/:token/query')
  @EmbedOf('question')
  pivotCard(@SharedObject() grant: EmbedGrant, @Query() q: Viewer, @Res() res: Response) {
    return this.runs.card(grant, q, res, { pivot: true });
  }

  @Get('pivot/dashboard/:token/dashcard/:dashcardId/card/:cardId')
  @EmbedOf('dashboard')
  pivotDashcard(
    @SharedObject() grant: EmbedGrant,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Param('cardId', IdParam('card-id')) cardId: number,
    @Query() q: Viewer,
    @Res() res: Response,
  ) {
    return this.runs.dashcard(grant, dashcardId, cardId, q, res, { pivot: true });
  }
}
