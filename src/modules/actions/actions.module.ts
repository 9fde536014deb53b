import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PUBLIC_LINK_RESOLVER } from '../../common/auth/access-plugins';
import { CardsModule } from '../cards/cards.module';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { DashcardActionsRegistry } from '../dashboards/dashcard-actions';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { ActionDashcardsController } from './action-dashcards.controller';
import { ActionDashcardsService } from './action-dashcards.service';
import { ActionPublicLinks } from './action-public-links';
import { ActionRunner } from './action-runner.service';
import { Action, ImplicitAction, QueryAction } from './action.entity';
import { ActionsController } from './actions.controller';
import { ActionsRepository } from './actions.repository';
import { ActionsService } from './actions.service';
import { PublicActionDashcardsController, PublicActionsController } from './public-actions.controller';

/**
 * Actions (Metabase's model actions): CRUD under /api/action with the model's collection deciding access, execution
 * on the warehouse in one transaction, dashboard buttons (dashcards with an `action_id`), and public actions. Its
 * public routes are resolved by its own PUBLIC_LINK_RESOLVER (actions, and dashboards for their buttons). It hands the
 * dashboards module the actions of action buttons (DashcardActionsRegistry).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Action, QueryAction, ImplicitAction]), CardsModule, DashboardsModule, WarehouseModule],
  controllers: [ActionsController, ActionDashcardsController, PublicActionsController, PublicActionDashcardsController],
  providers: [ActionsRepository, ActionRunner, ActionsService, ActionDashcardsService, { provide: PUBLIC_LINK_RESOLVER, useClass: ActionPublicLinks }],
})
export class ActionsModule implements OnModuleInit {
  constructor(
    private readonly registry: DashcardActionsRegistry,
    private readonly actions: ActionsService,
  ) {}

  /** Action buttons show their action on GET /api/dashboard/:id, and on public and embedded dashboards. */
  onModuleInit(): void {
    this.registry.register({ views: (ids) => this.actions.views(ids), publicViews: (ids) => this.actions.publicViews(ids) });
  }
}
