import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { IdParam, NonBlankParam } from '../../common/validation/pipes';
import { remappingValue } from '../cards';
import { EmbedLookupsService } from './embed-lookups.service';
import { EmbedRunsService } from './embed-runs.service';
import { EmbedOf, type EmbedGrant } from './embed-token.guard';
import { EmbeddingService } from './embedding.service';

type Viewer = Record<string, unknown>;

/**
 * `/api/preview-embed/...`: what an embed would show, for an admin setting it up. A superuser only (AdminPreviewGuard),
 * then PreviewTokenGuard: the object's `enable_embedding` is ignored and the token's `_embedding_params` is the
 * whitelist; results are capped at 2,000 rows.
 */
@Controller('api/preview-embed')
@Access('admin-preview')
export class PreviewEmbedController {
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

  @Get('dashboard/:token/params/:paramKey/values')
  @EmbedOf('dashboard')
  paramValues(@SharedObject() grant: EmbedGrant, @Param('paramKey', NonBlankParam('param-key')) key: string, @Query() q: Viewer) {
    return this.lookups.paramValues(grant, key, q);
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
