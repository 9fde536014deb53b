export { DashboardAccessService } from './dashboard-access.service';
export { dashboardCardIds, type DashboardParameter, type ReadableDashboard, type ReadableDashcard } from './dashboard-model';
export { DashboardsModule } from './dashboards.module';
export { DashboardsRepository } from './dashboards.repository';
export { DashboardsService } from './dashboards.service';
export { dashcardActions, DashcardActionsQuery } from './dashcard-actions';
