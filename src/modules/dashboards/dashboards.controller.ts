import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { DashboardCopyService } from './dashboard-copy.service';
import { DashboardMetadataService } from './dashboard-metadata.service';
import { DashboardWriteService } from './dashboard-write.service';
import {
  CopyDashboardDto,
  CreateDashboardDto,
  GetDashboardQuery,
  ListDashboardsQuery,
  RevertDashboardDto,
  UpdateCardsDto,
  UpdateDashboardDto,
} from './dashboards.dto';
import { DashboardsService } from './dashboards.service';

/** Dashboards, their layout (dashcards and tabs), copies, saved automatic dashboards and revisions. */
@Controller('api/dashboard')
export class DashboardsController {
  constructor(
    private readonly dashboards: DashboardsService,
    private readonly writes: DashboardWriteService,
    private readonly copies: DashboardCopyService,
    private readonly metadata: DashboardMetadataService,
  ) {}

  @Get()
  @Access('user')
  index(@Query() q: ListDashboardsQuery, @CurrentUser() caller: AuthUser) {
    return this.dashboards.list(caller, q.f ?? 'all');
  }

  @Get('embeddable')
  @Access('admin')
  embeddable() {
    return this.dashboards.embeddable();
  }

  @Get('public')
  @Access('admin')
  public() {
    return this.dashboards.public();
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  async create(@Body() body: CreateDashboardDto, @CurrentUser() caller: AuthUser) {
    return this.dashboards.get(caller, await this.writes.create(caller, body), false);
  }

  @Post('save')
  @Access('user')
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown>, @CurrentUser() caller: AuthUser) {
    return this.dashboards.get(caller, await this.copies.save(caller, body, undefined), false);
  }

  @Post('save/collection/:parentCollectionId')
  @Access('user')
  @HttpCode(200)
  async saveInto(
    @Param('parentCollectionId', IdParam('parent-collection-id')) collectionId: number,
    @Body() body: Record<string, unknown>,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.dashboards.get(caller, await this.copies.save(caller, body, collectionId), false);
  }

  @Get(':id')
  @Access('user')
  get(@Param('id', IdParam()) id: number, @Query() _q: GetDashboardQuery, @CurrentUser() caller: AuthUser) {
    return this.dashboards.get(caller, id);
  }

  @Put(':id')
  @Access('user')
  async update(@Param('id', IdParam()) id: number, @Body() body: UpdateDashboardDto, @CurrentUser() caller: AuthUser) {
    await this.writes.update(caller, id, body);
    return this.dashboards.get(caller, id, false);
  }

  /** Deprecated: PUT /api/dashboard/:id with `dashcards` instead. */
  @Put(':id/cards')
  @Access('user')
  async updateCards(@Param('id', IdParam()) id: number, @Body() body: UpdateCardsDto, @CurrentUser() caller: AuthUser) {
    await this.writes.update(caller, id, { dashcards: body.cards, ...(body.tabs ? { tabs: body.tabs } : {}) });
    const d = await this.dashboards.get(caller, id, false);
    return { cards: d.dashcards, tabs: d.tabs };
  }

  @Delete(':id')
  @Access('user')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.writes.remove(caller, id);
  }

  @Get(':id/related')
  @Access('user')
  related(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.dashboards.related(caller, id);
  }

  @Get(':id/query_metadata')
  @Access('user')
  queryMetadata(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.metadata.queryMetadata(caller, id);
  }

  @Get(':id/revisions')
  @Access('user')
  revisions(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.dashboards.revisionList(caller, id);
  }

  @Post(':id/revert')
  @Access('user')
  @HttpCode(200)
  revert(@Param('id', IdParam()) id: number, @Body() body: RevertDashboardDto, @CurrentUser() caller: AuthUser) {
    return this.dashboards.revert(caller, id, body.revision_id);
  }

  @Post(':fromDashboardId/copy')
  @Access('user')
  @HttpCode(200)
  async copy(
    @Param('fromDashboardId', IdParam('from-dashboard-id')) id: number,
    @Body() body: CopyDashboardDto,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.dashboards.get(caller, await this.copies.copy(caller, id, body), false);
  }
}
