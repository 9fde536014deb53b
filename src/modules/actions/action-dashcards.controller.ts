import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { AuthUser, CurrentUser } from '../../common/auth/current-user';
import { IdParam } from '../../common/validation/pipes';
import { ActionDashcardsService } from './action-dashcards.service';
import { ExecuteDashcardDto, parseJsonMap } from './actions.dto';

/** /api/dashboard/:dashboard-id/dashcard/:dashcard-id/execute: the action button of a dashcard. */
@Controller('api/dashboard')
export class ActionDashcardsController {
  constructor(private readonly dashcards: ActionDashcardsService) {}

  @Get(':dashboardId/dashcard/:dashcardId/execute')
  @Access('user')
  prefill(
    @Param('dashboardId', IdParam('dashboard-id')) dashboardId: number,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Query('parameters') parameters: unknown,
    @CurrentUser() caller: AuthUser,
  ) {
    return this.dashcards.prefill(caller, dashboardId, dashcardId, parseJsonMap('parameters', parameters));
  }

  @Post(':dashboardId/dashcard/:dashcardId/execute')
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
