import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BookmarksModule } from '../bookmarks';
import { EventBus } from '../../common/events/event-bus';
import { CardsModule } from '../cards';
import { CollectionsModule, subscribeItemSource } from '../collections';
import { DatasetModule } from '../dataset';
import { FieldsModule } from '../fields';
import { RevisionsModule } from '../revisions';
import { SearchModule } from '../search';
import { WarehouseModule } from '../warehouse';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardCardSeries } from '../../schema/dashboard-card-series.entity';
import { DashboardCard } from '../../schema/dashboard-card.entity';
import { DashboardCopyService } from './dashboard-copy.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { DashboardItemsSource } from './dashboard-items.source';
import { DashboardLayoutCache } from './dashboard-layout.cache';
import { DashboardMetadataService } from './dashboard-metadata.service';
import { DashboardVirtualTables } from './dashboard-virtual-tables';
import { DashboardTab } from '../../schema/dashboard-tab.entity';
import { DashboardWriteService } from './dashboard-write.service';
import { Dashboard } from '../../schema/dashboard.entity';
import { DashboardsController } from './dashboards.controller';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

/**
 * Dashboards with their tabs, dashcards and series, their revisions and their place in collections. Exports
 * `DashboardsService.readable` for the dashboard-queries module. The actions of action buttons come from the actions
 * module, above this one, through the event bus (DashcardActionsQuery).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Dashboard, DashboardTab, DashboardCard, DashboardCardSeries]),
    CollectionsModule,
    CardsModule,
    RevisionsModule,
    SearchModule,
    BookmarksModule,
    FieldsModule,
    DatasetModule,
    WarehouseModule,
  ],
  controllers: [DashboardsController],
  providers: [
    DashboardsRepository,
    DashboardAccessService,
    DashboardHydrator,
    DashboardLayoutCache,
    DashboardsService,
    DashboardWriteService,
    DashboardCopyService,
    DashboardMetadataService,
    DashboardVirtualTables,
    DashboardItemsSource,
  ],
  exports: [DashboardsRepository, DashboardAccessService, DashboardsService],
})
export class DashboardsModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly items: DashboardItemsSource,
  ) {}

  onModuleInit(): void {
    subscribeItemSource(this.bus, this.items);
  }
}
