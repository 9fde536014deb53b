import { Controller, Get, Param, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { parseComparisonEntity, parseEntity, parseId, parseShow, parseTemplate } from './automagic-params';
import { AutomagicService } from './automagic.service';
import { CandidatesService } from './candidates.service';

type P = Record<string, string>;

/**
 * GET /api/automagic-dashboards/...: automatic dashboards (x-rays) of tables, fields, segments, metrics, saved
 * questions, models and ad-hoc queries, of a cell of a chart, with a chosen template, and compared to another
 * entity. Unsaved: POST /api/dashboard/save saves one.
 */
@Controller('api/automagic-dashboards')
export class AutomagicController {
  constructor(
    private readonly service: AutomagicService,
    private readonly candidatesService: CandidatesService,
  ) {}

  @Get('database/:id/candidates')
  @Access('user')
  candidates(@Param('id', IdParam('id')) id: number, @CurrentUser() caller: AuthUser) {
    return this.candidatesService.candidates(caller, id);
  }

  @Get('model_index/:modelIndexId/primary_key/:pkId')
  @Access('user')
  modelIndex(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    const s = parseShow(show);
    return this.service.modelIndexDetail(caller, parseId('model-index-id', p.modelIndexId), parseId('pk-id', p.pkId), s);
  }

  @Get(':entity/:idOrQuery/query_metadata')
  @Access('user')
  queryMetadata(@Param() p: P, @CurrentUser() caller: AuthUser) {
    return this.service.queryMetadata(caller, parseEntity(p.entity), p.idOrQuery);
  }

  @Get(':entity/:idOrQuery')
  @Access('user')
  entity(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/cell/:cell')
  @Access('user')
  cell(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/cell/:cell/compare/:cEntity/:cIdOrQuery')
  @Access('user')
  cellCompare(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/cell/:cell/rule/:prefix/:template')
  @Access('user')
  cellRule(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/cell/:cell/rule/:prefix/:template/compare/:cEntity/:cIdOrQuery')
  @Access('user')
  cellRuleCompare(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/compare/:cEntity/:cIdOrQuery')
  @Access('user')
  compare(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/rule/:prefix/:template')
  @Access('user')
  rule(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  @Get(':entity/:idOrQuery/rule/:prefix/:template/compare/:cEntity/:cIdOrQuery')
  @Access('user')
  ruleCompare(@Param() p: P, @Query('show') show: unknown, @CurrentUser() caller: AuthUser) {
    return this.run(caller, p, show);
  }

  /** Every x-ray route: the path's parts checked in the order they appear, then the dashboard. */
  private run(caller: AuthUser, p: P, show: unknown) {
    const entity = parseEntity(p.entity);
    const template = p.prefix !== undefined ? parseTemplate(p.prefix, p.template) : undefined;
    const compare = p.cEntity !== undefined ? { entity: parseComparisonEntity(p.cEntity), idOrQuery: p.cIdOrQuery } : undefined;
    return this.service.xray(caller, { entity, idOrQuery: p.idOrQuery, cell: p.cell, template, compare, show: parseShow(show) });
  }
}
