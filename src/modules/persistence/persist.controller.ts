import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { EnablePersistenceDto, ListPersistedQuery, RefreshScheduleDto } from './persistence.dto';
import { PersistenceAdminService } from './persistence-admin.service';

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
