import { Controller, Get, HttpCode, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { abortOnDisconnect } from '../../common/http/abort-on-disconnect';
import { IdParam, NonBlankParam } from '../../common/validation/pipes';
import { CardRunner, remappingValue } from '../cards';
import { cardExportSpec, downloadContext, EXPORT_MAX_ROWS, parseDownloadRequest, writeExport } from '../dataset';
import { RemappingQuery, SearchQuery } from '../fields';
import { parseJson } from '../../common/database/stored-json';
import { PublicModel, type PublicCard } from './public-link.resolver';
import { SharedFieldsService } from './shared-fields.service';
import { cardValues } from './shared-queries.service';
import { SharedQueryParams } from './shared.dto';
import { sharedDownload, sharedResults } from './shared-results';
import { sharedCardView } from './shared-views';

const CONTEXT = 'public-question';

/**
 * /api/public/card/:uuid...: a publicly shared question, its results and its parameters' values. The guard has
 * checked the setting and the UUID and loaded the card (unarchived); every run and look-up reads with the link's
 * grant. Failures answer as the public surface does.
 */
@Controller('api/public')
@PublicModel('card')
export class PublicCardController {
  constructor(
    private readonly runner: CardRunner,
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
  async query(@SharedObject() shared: PublicCard, @Query() q: SharedQueryParams, @Res({ passthrough: true }) res: Response) {
    const opts = { parameters: cardValues(shared.card, q.parameters ?? []), context: CONTEXT };
    return sharedResults(await this.runner.run(shared, shared.card, opts, abortOnDisconnect(res)));
  }

  /**
   * The results as a file (csv, xlsx, json; `parameters` json-str, `format_rows`) on the download writer, or in the
   * public shape (`api`). Logged with the format's download context.
   */
  @Get('card/:uuid/query/:exportFormat')
  @Access('public-sharing')
  async export(
    @SharedObject() shared: PublicCard,
    @Param('exportFormat') format: string,
    @Query() query: Record<string, unknown>,
    @Res() res: Response,
  ) {
    const request = parseDownloadRequest(format, { parameters: query.parameters, format_rows: query.format_rows });
    const signal = abortOnDisconnect(res);
    const parameters = cardValues(shared.card, request.parameters ?? []);
    if (request.format === 'api') {
      res.status(200).json(sharedResults(await this.runner.run(shared, shared.card, { parameters, context: CONTEXT }, signal)));
      return;
    }
    const opts = { parameters, context: downloadContext(request.format, CONTEXT), maxRows: EXPORT_MAX_ROWS };
    const answer = sharedDownload(await this.runner.stream(shared, shared.card, opts, signal));
    const card = {
      name: shared.card.name,
      visualizationSettings: parseJson<Record<string, unknown>>(shared.card.visualization_settings, {}),
      pivot: false,
    };
    await writeExport(res, cardExportSpec(request, card), answer);
  }

  @Get('pivot/card/:uuid/query')
  @Access('public-sharing')
  @HttpCode(202)
  async pivot(@SharedObject() shared: PublicCard, @Query() q: SharedQueryParams, @Res({ passthrough: true }) res: Response) {
    const opts = { parameters: cardValues(shared.card, q.parameters ?? []), context: CONTEXT };
    return sharedResults(await this.runner.pivot(shared, shared.card, opts, abortOnDisconnect(res)));
  }

  @Get('card/:uuid/field/:fieldId/values')
  @Access('public-sharing')
  values(@SharedObject() shared: PublicCard, @Param('fieldId', IdParam('field-id')) fieldId: number) {
    return this.fields.values(shared, this.fields.cardFields(shared.card), fieldId);
  }

  @Get('card/:uuid/field/:fieldId/search/:searchFieldId')
  @Access('public-sharing')
  search(
    @SharedObject() shared: PublicCard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('searchFieldId', IdParam('search-field-id')) searchFieldId: number,
    @Query() q: SearchQuery,
  ) {
    return this.fields.search(shared, this.fields.cardFields(shared.card), fieldId, searchFieldId, q.value, q.limit ?? undefined);
  }

  @Get('card/:uuid/field/:fieldId/remapping/:remappedId')
  @Access('public-sharing')
  remapping(
    @SharedObject() shared: PublicCard,
    @Param('fieldId', IdParam('field-id')) fieldId: number,
    @Param('remappedId', IdParam('remapped-id')) remappedId: number,
    @Query() q: RemappingQuery,
  ) {
    return this.fields.remapping(shared, this.fields.cardFields(shared.card), fieldId, remappedId, q.value);
  }

  @Get('card/:uuid/params/:paramKey/values')
  @Access('public-sharing')
  paramValues(@SharedObject() shared: PublicCard, @Param('paramKey', NonBlankParam('param-key')) key: string) {
    return this.fields.cardParamValues(shared, shared.card, key);
  }

  @Get('card/:uuid/params/:paramKey/remapping')
  @Access('public-sharing')
  paramRemapping(
    @SharedObject() shared: PublicCard,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Query('value') value: unknown,
  ) {
    return this.fields.cardParamRemapping(shared, shared.card, key, remappingValue(value));
  }

  @Get('card/:uuid/params/:paramKey/search/:query')
  @Access('public-sharing')
  paramSearch(
    @SharedObject() shared: PublicCard,
    @Param('paramKey', NonBlankParam('param-key')) key: string,
    @Param('query', NonBlankParam('query')) query: string,
  ) {
    return this.fields.cardParamValues(shared, shared.card, key, query);
  }
}
