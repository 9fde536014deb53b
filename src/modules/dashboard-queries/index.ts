export { columnField, DashboardParamsService } from './dashboard-params.service';
export { DashboardQueriesModule } from './dashboard-queries.module';
export { mapParameters, type SentValue } from './parameter-mapping';
