import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import {
  ArchiveSegmentMetricQuery,
  CreateSegmentMetricDto,
  RevertSegmentMetricDto,
  UpdateSegmentMetricDto,
} from './segments-and-metrics.dto';
import type { SegmentMetricKind } from './segment-metric-kind';
import { SegmentMetricRelatedService } from './segment-metric-related.service';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';

/**
 * The routes /api/segment and /api/metric share (their spec sections list the same endpoints): reads for anyone who
 * may query the table's database, writes for admins. Segments ignore `how_is_this_calculated`. Each controller
 * extending it declares its own path.
 */
export abstract class SegmentMetricRoutes {
  protected abstract readonly kind: SegmentMetricKind;

  constructor(
    protected readonly service: SegmentsAndMetricsService,
    private readonly relatedEntities: SegmentMetricRelatedService,
  ) {}

  @Get()
  @Access('user')
  list(@CurrentUser() caller: AuthUser) {
    return this.service.list(caller, this.kind);
  }

  @Post()
  @Access('admin')
  @HttpCode(200)
  create(@Body() body: CreateSegmentMetricDto, @CurrentUser() caller: AuthUser) {
    return this.service.create(caller, this.kind, body);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.service.get(caller, this.kind, id);
  }

  @Put(':id')
  @Access('admin')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateSegmentMetricDto, @CurrentUser() caller: AuthUser) {
    return this.service.update(caller, this.kind, id, body);
  }

  /** Deprecated: archives, as PUT with `archived: true` does. */
  @Delete(':id')
  @Access('admin')
  @HttpCode(204)
  async archive(@Param('id', IdParam()) id: number, @Query() q: ArchiveSegmentMetricQuery, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.service.update(caller, this.kind, id, { archived: true, revision_message: q.revision_message });
  }

  @Get(':id/revisions')
  @Access('user')
  revisions(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.service.revisionsOf(caller, this.kind, id);
  }

  @Post(':id/revert')
  @Access('admin')
  @HttpCode(200)
  revert(@Param('id', IdParam()) id: number, @Body() body: RevertSegmentMetricDto, @CurrentUser() caller: AuthUser) {
    return this.service.revert(caller, this.kind, id, body.revision_id);
  }

  @Get(':id/related')
  @Access('user')
  related(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.relatedEntities.related(caller, this.kind, id);
  }
}
