import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { SharedObject } from '../../common/auth/shared-object';
import { IdParam } from '../../common/validation/pipes';
import { PublicModel } from '../public-sharing';
import { ActionDashcardsService } from './action-dashcards.service';
import { ActionRunner } from './action-runner.service';
import { PublicActionModel, type PublicAction, type PublicActionDashboard } from './action-public-links';
import { ExecuteActionDto, ExecuteDashcardDto, parseJsonMap } from './actions.dto';
import { ActionsService } from './actions.service';

/** /api/public/action/:uuid: a publicly shared action's form and its execution (no login; the guard loaded it). */
@Controller('api/public/action')
@PublicActionModel()
export class PublicActionsController {
  constructor(
    private readonly actions: ActionsService,
    private readonly runner: ActionRunner,
  ) {}

  @Get(':uuid')
  @Access('public-sharing')
  get(@SharedObject() shared: PublicAction) {
    return this.actions.publicView(shared.action);
  }

  @Post(':uuid/execute')
  @Access('public-sharing')
  @HttpCode(200)
  execute(@SharedObject() shared: PublicAction, @Body() body: ExecuteActionDto) {
    return this.runner.execute(shared.action, body.parameters ?? {});
  }
}

/** /api/public/dashboard/:uuid/dashcard/:dashcard-id/execute: the action buttons of a publicly shared dashboard. */
@Controller('api/public/dashboard')
@PublicModel('dashboard')
export class PublicActionDashcardsController {
  constructor(private readonly dashcards: ActionDashcardsService) {}

  @Get(':uuid/dashcard/:dashcardId/execute')
  @Access('public-sharing')
  prefill(
    @SharedObject() shared: PublicActionDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Query('parameters') parameters: unknown,
  ) {
    return this.dashcards.prefill(null, shared.dashboardId, dashcardId, parseJsonMap('parameters', parameters));
  }

  @Post(':uuid/dashcard/:dashcardId/execute')
  @Access('public-sharing')
  @HttpCode(200)
  execute(
    @SharedObject() shared: PublicActionDashboard,
    @Param('dashcardId', IdParam('dashcard-id')) dashcardId: number,
    @Body() body: ExecuteDashcardDto,
  ) {
    return this.dashcards.execute(null, shared.dashboardId, dashcardId, body.parameters ?? {}, body.extra_parameters ?? {});
  }
}
