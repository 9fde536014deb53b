import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PUBLIC_LINK_RESOLVER } from '../../common/auth/access-plugins';
import { CardsModule } from '../cards';
import { DashboardsModule, DashcardActionsQuery } from '../dashboards';
import { EventBus } from '../../common/events/event-bus';
import { DatasetModule } from '../dataset';
import { RowSecurityModule } from '../row-security';
import { WarehouseModule } from '../warehouse';
import { ActionDashcardsService } from './action-dashcards.service';
import { ActionPrefill } from './action-prefill.service';
import { ActionPublicLinks } from './action-public-links';
import { ActionRunner } from './action-runner.service';
import { Action, ImplicitAction, QueryAction } from '../../schema/action.entity';
import { ActionsController } from './actions.controller';
import { ActionsRepository } from './actions.repository';
import { ActionsService } from './actions.service';
import { DashcardExecuteController } from './dashcard-execute.controller';
import { PublicActionDashcardsController, PublicActionsController } from './public-actions.controller';

/**
 * Actions (Metabase's model actions): CRUD under /api/action with the model's collection deciding access, execution
 * on the warehouse in one transaction, dashboard buttons (dashcards with an `action_id`), and public actions. Its
 * public routes are resolved by its own PUBLIC_LINK_RESOLVER (actions, and dashboards for their buttons). It hands the
 * dashboards module the actions of action buttons (it answers DashcardActionsQuery).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Action, QueryAction, ImplicitAction]),
    CardsModule,
    DashboardsModule,
    DatasetModule,
    WarehouseModule,
    RowSecurityModule,
  ],
  controllers: [ActionsController, DashcardExecuteController, PublicActionsController, PublicActionDashcardsController],
  providers: [
    ActionsRepository,
    ActionRunner,
    ActionPrefill,
    ActionsService,
    ActionDashcardsService,
    { provide: PUBLIC_LINK_RESOLVER, useClass: ActionPublicLinks },
  ],
})
export class ActionsModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly actions: ActionsService,
  ) {}

  /** Action buttons show their action on GET /api/dashboard/:id, and on public and embedded dashboards. */
  onModuleInit(): void {
    this.bus.answer(DashcardActionsQuery, (q) => (q.audience === 'user' ? this.actions.views(q.ids) : this.actions.publicViews(q.ids)));
  }
}
