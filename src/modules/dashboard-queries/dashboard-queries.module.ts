import { Module } from '@nestjs/common';
import { CardsModule } from '../cards';
import { DashboardsModule } from '../dashboards';
import { DatasetModule } from '../dataset';
import { FieldsModule } from '../fields';
import { WarehouseModule } from '../warehouse';
import { DashboardParamsService } from './dashboard-params.service';
import { DashboardParamsController } from './dashboard-params.controller';
import { DashcardQueryController } from './dashcard-query.controller';
import { DashboardQueriesRepository } from './dashboard-queries.repository';
import { DashboardQueriesService } from './dashboard-queries.service';

/** Queries in a dashboard's context: dashcard queries and parameter values (chain filters). */
@Module({
  imports: [DashboardsModule, CardsModule, DatasetModule, FieldsModule, WarehouseModule],
  controllers: [DashcardQueryController, DashboardParamsController],
  providers: [DashboardQueriesService, DashboardParamsService, DashboardQueriesRepository],
  // For the public-sharing module: a shared dashboard's parameter values (chain filters included).
  exports: [DashboardParamsService],
})
export class DashboardQueriesModule {}
