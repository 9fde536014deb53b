import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { ArchiveMacroQuery, CreateMacroDto, RevertMacroDto, UpdateMacroDto } from './legacy-metrics.dto';
import { LegacyMetricsService } from './legacy-metrics.service';
import { MacroRelatedService } from './macro-related.service';
import type { MacroModel } from './macro-model';

/**
 * The routes /api/segment and /api/metric share (their spec sections list the same endpoints): reads for anyone who
 * may query the table's database, writes for admins. Segments ignore `how_is_this_calculated`.
 */
export function macroController(model: MacroModel) {
  @Controller(`api/${model}`)
  class MacroController {
    constructor(
      readonly macros: LegacyMetricsService,
      readonly relatedEntities: MacroRelatedService,
    ) {}

    @Get()
    @Access('user')
    list(@CurrentUser() caller: AuthUser) {
      return this.macros.list(caller, model);
    }

    @Post()
    @Access('admin')
    @HttpCode(200)
    create(@Body() body: CreateMacroDto, @CurrentUser() caller: AuthUser) {
      return this.macros.create(caller, model, body);
    }

    @Get(':id')
    @Access('user')
    get(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
      return this.macros.get(caller, model, id);
    }

    @Put(':id')
    @Access('admin')
    update(@Param('id', IdParam()) id: number, @Body() body: UpdateMacroDto, @CurrentUser() caller: AuthUser) {
      return this.macros.update(caller, model, id, body);
    }

    /** Deprecated: archives, as PUT with `archived: true` does. */
    @Delete(':id')
    @Access('admin')
    @HttpCode(204)
    async archive(@Param('id', IdParam()) id: number, @Query() q: ArchiveMacroQuery, @CurrentUser() caller: AuthUser): Promise<void> {
      await this.macros.update(caller, model, id, { archived: true, revision_message: q.revision_message });
    }

    @Get(':id/revisions')
    @Access('user')
    revisions(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
      return this.macros.revisionsOf(caller, model, id);
    }

    @Post(':id/revert')
    @Access('admin')
    @HttpCode(200)
    revert(@Param('id', IdParam()) id: number, @Body() body: RevertMacroDto, @CurrentUser() caller: AuthUser) {
      return this.macros.revert(caller, model, id, body.revision_id);
    }

    @Get(':id/related')
    @Access('user')
    related(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
      return this.relatedEntities.related(caller, model, id);
    }
  }
  return MacroController;
}
