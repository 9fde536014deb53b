import { Controller, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { IdParam } from '../../common/validation/pipes';
import { abortOnDisconnect } from '../dataset/dataset.controller';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest } from '../dataset/export/export-request';
import { writeExport } from '../dataset/export/write-export';
import { parseJson } from '../../common/database/stored-json';
import { PublicModel, type PublicCard } from './public-link.resolver';
import { SharedFieldsService } from './shared-fields.service';
import { cardValues, SharedQueriesService, type SharedRun } from './shared-queries.service';
import { nonBlank, optionalPositiveInt, parametersParam } from './shared-request';
import { sharedDownload, sharedResults } from './shared-results';
import { sharedCardView } from './shared-views';

const RUN: SharedRun = { via: 'public', context: 'public-question' };

/**
 * /api/public/card/:uuid...: a publicly shared question, its results and its parameters' values. The guard has
 * checked the setting and the UUID and loaded the card (unarchived); failures answer as the public surface does.
 */
@Controller('api/public')
@PublicModel('card')
export class PublicCardController {
  constructor(
    private readonly queries: SharedQueriesService,
    private readonly fields: SharedFieldsService,
  ) {}

  @Get('card/:uuid')
  @Access('public-sharing')
  async card(@SharedObject() shared: PublicCard) {
    return sharedCardView(shared.card, await this.fields.paramFields(this.fields.cardFields(shared.card)));
  }

  /** 202, as every query answer (also when it failed). */
  @Get('card/:uuid/query')
  @Access('public-sharing')
  @HttpCode(202)
  async query(@SharedObject() shared: PublicCard, @Query('parameters') parameters: unknown, @Res({ passthrough: true }) res: Response) {
    return sharedResults(await this.queries.runCard(shared.card, cardValues(shared.card, parametersParam(parameters)), RUN, abortOnDisconnect(res)));
  }

  /**
   * The results as a file (csv, xlsx, json; `parameters` json-str, `format_rows`) on the download writer, or in the
   * public shape (`api`). Logged with the format's download context.
   */
  @Get('card/:uuid/query/:exportFormat')
  @Access('public-sharing')
  async export(@SharedObject() shared: PublicCard, @Param('exportFormat') format: string, @Query() query: Record<string, unknown>, @Res() res: Response) {
    const request = parseDownloadRequest(format, { parameters: query.parameters, format_rows: query.format_rows });
    const signal = abortOnDisconnect(res);
    const values = cardValues(shared.card, request.parameters ?? []);
    if (request.format === 'api') {
      res.status(200).json(sharedResults(await this.queries.runCard(shared.card, values, RUN, signal)));
      return;
    }
    const run: SharedRun = { via: 'public', context: downloadContext(request.format, RUN.context), maxRows: EXPORT_MAX_ROWS };
    const answer = sharedDownload(await this.queries.streamCard(shared.card, values, run, signal));
    const card = { name: shared.card.name, visualizationSettings: parseJson<Record<string, unknown>>(shared.card.visualization_settings, {}), pivot: false };
    await writeExport(res, cardExportSpec(request, card), answer);
  }

  @Get('pivot/card/:uuid/query')
  @Access('public-sharing')
  @HttpCode(202)
  async pivot(@SharedObject() shared: PublicCard, @Query('parameters') parameters: unknown, @Res({ passthrough: true }) res: Response) {
    return sharedResults(await this.queries.pivotCard(shared.card, cardValues(shared.card, parametersParam(parameters)), RUN, abortOnDisconnect(res)));
  }

  @Get('card/:uuid/field/:fieldId/values')
  @Access('public-sharing')
  values(@SharedObject() shared: PublicCard, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.fields.values(this.fields.cardFields(shared.card), fieldId);
  }

  @Get('card/:uuid/field/:fieldId/search/:searchFieldId')
  @Access('public-sharing')
  search(
    @SharedObject() shared: PublicCard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchFieldId: number,
    @Query('value') value: unknown,
    @Query('limit') limit: unknown,
  ) {
    return this.fields.search(this.fields.cardFields(shared.card), fieldId, searchFieldId, nonBlank('value', value), optionalPositiveInt('limit', limit));
  }

  @Get('card/:uuid/field/:fieldId/remapping/:remappedId')
  @Access('public-sharing')
  remapping(
    @SharedObject() shared: PublicCard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query('value') value: unknown,
  ) {
    return this.fields.remapping(this.fields.cardFields(shared.card), fieldId, remappedId, nonBlank('value', value));
  }

  @Get('card/:uuid/params/:paramKey/values')
  @Access('public-sharing')
  paramValues(@SharedObject() shared: PublicCard, @Param('paramKey') key: string) {
    return this.fields.cardParamValues(shared.card, nonBlank('param-key', key));
  }

  @Get('card/:uuid/params/:paramKey/search/:query')
  @Access('public-sharing')
  paramSearch(@SharedObject() shared: PublicCard, @Param('paramKey') key: string, @Param('query') query: string) {
    return this.fields.cardParamValues(shared.card, nonBlank('param-key', key), nonBlank('query', query));
  }
}
