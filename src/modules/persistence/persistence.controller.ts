import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { EnablePersistenceDto, ListPersistedQuery, RefreshScheduleDto } from './persistence.dto';
import { PersistenceAdminService } from './persistence-admin.service';
import { PersistenceService } from './persistence.service';

/** A model's persisted table: built, rebuilt and dropped by whoever may change the model (write access to its collection). */
@Controller('api/card')
export class CardPersistenceController {
  constructor(private readonly persistence: PersistenceService) {}

  @Post(':cardId/persist')
  @Access('user')
  @HttpCode(204)
  async persist(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.persist(caller, cardId);
  }

  @Post(':cardId/refresh')
  @Access('user')
  @HttpCode(204)
  async refresh(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.refresh(caller, cardId);
  }

  @Post(':cardId/unpersist')
  @Access('user')
  @HttpCode(204)
  async unpersist(@Param('cardId', IdParam('card-id')) cardId: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.persistence.unpersist(caller, cardId);
  }
}

/** The per-database switch (admin, as in Metabase). */
@Controller('api/database')
export class DatabasePersistenceController {
  constructor(private readonly persistence: PersistenceService) {}

  @Post(':id/persist')
  @Access('admin')
  @HttpCode(204)
  async enable(@Param('id', IdParam()) id: number): Promise<void> {
    await this.persistence.enableDatabase(id);
  }

  @Post(':id/unpersist')
  @Access('admin')
  @HttpCode(204)
  async disable(@Param('id', IdParam()) id: number): Promise<void> {
    await this.persistence.disableDatabase(id);
  }
}

/** The persisted models of the instance, and its switch and schedule. */
@Controller('api/persist')
export class PersistController {
  constructor(private readonly admin: PersistenceAdminService) {}

  @Get()
  @Access('admin')
  list(@Query() q: ListPersistedQuery) {
    return this.admin.list(q.limit ?? undefined, q.offset ?? 0);
  }

  @Get('card/:id')
  @Access('user')
  forCard(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.admin.forCard(caller, id);
  }

  @Post('enable')
  @Access('admin')
  @HttpCode(204)
  async enable(@Body() body: EnablePersistenceDto): Promise<void> {
    await this.admin.enable(body.state);
  }

  @Post('set-refresh-schedule')
  @Access('admin')
  @HttpCode(204)
  async schedule(@Body() body: RefreshScheduleDto): Promise<void> {
    await this.admin.setSchedule(body.cron);
  }

  @Get(':id')
  @Access('user')
  byId(@Param('id', IdParam('persisted-info-id')) id: number, @CurrentUser() caller: AuthUser) {
    return this.admin.byId(caller, id);
  }
}
