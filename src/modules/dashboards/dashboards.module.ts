import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardCardSeries } from './dashboard-card-series.entity';
import { DashboardCard } from './dashboard-card.entity';
import { DashboardTab } from './dashboard-tab.entity';
import { Dashboard } from './dashboard.entity';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

/** Dashboards with their tabs, dashcards and series. Exports `DashboardsService.readable` for the dashboard-queries module. */
@Module({
  imports: [TypeOrmModule.forFeature([Dashboard, DashboardTab, DashboardCard, DashboardCardSeries]), CollectionsModule],
  providers: [DashboardsRepository, DashboardAccessService, DashboardsService],
  exports: [DashboardsRepository, DashboardAccessService, DashboardsService],
})
export class DashboardsModule {}
