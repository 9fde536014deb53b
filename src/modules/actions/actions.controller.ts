import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { CreateActionDto, ExecuteActionDto, ListActionsQuery, UpdateActionDto } from './actions.dto';
import { ActionsService } from './actions.service';

/** /api/action: actions on models, their execution and their public links. */
@Controller('api/action')
export class ActionsController {
  constructor(private readonly actions: ActionsService) {}

  @Get()
  @Access('user')
  list(@Query() q: ListActionsQuery, @CurrentUser() caller: AuthUser) {
    return this.actions.list(caller, q['model-id'] ?? null);
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  create(@Body() body: CreateActionDto, @CurrentUser() caller: AuthUser) {
    return this.actions.create(caller, body);
  }

  @Get(':id')
  @Access('user')
  async get(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.actions.get(caller, id);
  }

  @Put(':id')
  @Access('user')
  update(@Param('id', IdParam()) id: number, @Body() body: UpdateActionDto, @CurrentUser() caller: AuthUser) {
    return this.actions.update(caller, id, body);
  }

  @Delete(':id')
  @Access('user')
  @HttpCode(204)
  async remove(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser): Promise<void> {
    await this.actions.remove(caller, id);
  }

  @Post(':id/execute')
  @Access('user')
  @HttpCode(200)
  execute(@Param('id', IdParam()) id: number, @Body() body: ExecuteActionDto, @CurrentUser() caller: AuthUser) {
    return this.actions.execute(caller, id, body.parameters ?? {});
  }

  @Post(':id/public_link')
  @Access('admin')
  @HttpCode(200)
  share(@Param('id', IdParam()) id: number, @CurrentUser() caller: AuthUser) {
    return this.actions.share(caller, id);
  }

  @Delete(':id/public_link')
  @Access('admin')
  @HttpCode(204)
  async unshare(@Param('id', IdParam()) id: number): Promise<void> {
    await this.actions.unshare(id);
  }
}
