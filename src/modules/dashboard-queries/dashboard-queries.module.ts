import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { DashboardsModule } from '../dashboards/dashboards.module';
import { DatasetModule } from '../dataset/dataset.module';
import { FieldsModule } from '../fields/fields.module';
import { DashboardParamsService } from './dashboard-params.service';
import { DashboardQueriesController } from './dashboard-queries.controller';
import { DashcardExportController } from './dashcard-export.controller';
import { DashboardQueriesRepository } from './dashboard-queries.repository';
import { DashboardQueriesService } from './dashboard-queries.service';

/** Queries in a dashboard's context: dashcard queries and parameter values (chain filters). */
@Module({
  imports: [DashboardsModule, CardsModule, DatasetModule, FieldsModule],
  controllers: [DashboardQueriesController, DashcardExportController],
  providers: [DashboardQueriesService, DashboardParamsService, DashboardQueriesRepository],
  // For the public-sharing module: a shared dashboard's parameter values (chain filters included).
  exports: [DashboardParamsService],
})
export class DashboardQueriesModule {}
