import { DashcardActionsRegistry } from './dashcard-actions';
import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BookmarksModule } from '../bookmarks/bookmarks.module';
import { CardsRepository } from '../cards/cards.repository';
import { CollectionItemsRegistry } from '../collections/collection-items.registry';
import { CollectionsModule } from '../collections/collections.module';
import { DatasetModule } from '../dataset/dataset.module';
import { FieldsModule } from '../fields/fields.module';
import { RevisionsModule } from '../revisions/revisions.module';
import { SearchModule } from '../search/search.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { DashboardAccessService } from './dashboard-access.service';
import { DashboardCardSeries } from './dashboard-card-series.entity';
import { DashboardCard } from './dashboard-card.entity';
import { DashboardCopyService } from './dashboard-copy.service';
import { DashboardHydrator } from './dashboard-hydrator';
import { DashboardItemsSource } from './dashboard-items.source';
import { DashboardMetadataService } from './dashboard-metadata.service';
import { DashboardVirtualTables } from './dashboard-virtual-tables';
import { DashboardTab } from './dashboard-tab.entity';
import { DashboardWriteService } from './dashboard-write.service';
import { Dashboard } from './dashboard.entity';
import { DashboardsController } from './dashboards.controller';
import { DashboardsRepository } from './dashboards.repository';
import { DashboardsService } from './dashboards.service';

/**
 * Dashboards with their tabs, dashcards and series, their revisions and their place in collections. Exports
 * `DashboardsService.readable` for the dashboard-queries module. Cards are read through their own repository (as
 * ContentModule does), so this module does not depend on the cards module.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Dashboard, DashboardTab, DashboardCard, DashboardCardSeries]),
    CollectionsModule,
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
    CardsRepository,
    DashboardAccessService,
    DashboardHydrator,
    DashboardsService,
    DashboardWriteService,
    DashboardCopyService,
    DashboardMetadataService,
    DashboardVirtualTables,
    DashboardItemsSource,
    DashcardActionsRegistry,
  ],
  exports: [DashboardsRepository, DashboardAccessService, DashboardsService, DashcardActionsRegistry],
})
export class DashboardsModule implements OnModuleInit {
  constructor(
    private readonly registry: CollectionItemsRegistry,
    private readonly items: DashboardItemsSource,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.items);
  }
}
