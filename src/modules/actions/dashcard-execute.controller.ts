import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { ActionDashcardsService } from './action-dashcards.service';
import { ExecuteDashcardDto, parseJsonMap } from './actions.dto';

/** The action button of a dashcard: its form's values filled in beforehand (GET), and the action run (POST). */
@Controller('api/dashboard/:dashboardId/dashcard/:dashcardId/execute')
export class DashcardExecuteController {
  constructor(private readonly dashcards: ActionDashcardsService) {}

  @Get()
  @Access('user')
  prefill(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Query('parameters') parameters: unknown,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.dashcards.prefill(caller, dashboardId, dashcardId, parseJsonMap('parameters', parameters));
  }

  @Post()
  @Access('user')
  @HttpCode(200)
  execute(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Body() body: ExecuteDashcardDto,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.dashcards.execute(caller, dashboardId, dashcardId, body.parameters ?? {}, body.extra_parameters ?? {});
  }
}
