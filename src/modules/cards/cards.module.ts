import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BookmarksModule } from '../bookmarks/bookmarks.module';
import { CollectionItemsRegistry } from '../collections/collection-items.registry';
import { CollectionsModule } from '../collections/collections.module';
import { DatasetModule } from '../dataset/dataset.module';
import { RevisionsModule } from '../revisions/revisions.module';
import { SearchModule } from '../search/search.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { TablesModule } from '../tables/tables.module';
import { FieldsModule } from '../fields/fields.module';
import { CardAccessService } from './card-access.service';
import { CardDetailsController } from './card-details.controller';
import { CardExportController } from './card-export.controller';
import { CardMetadataService } from './card-metadata.service';
import { CardParamsService } from './card-params.service';
import { CardRelatedService } from './card-related.service';
import { CardSeriesService } from './card-series.service';
import { CardSharingService } from './card-sharing.service';
import { CardHydrator } from './card-hydrator';
import { CardItemsSource } from './card-items.source';
import { CardListService } from './card-list.service';
import { CardQueriesService } from './card-queries.service';
import { Card } from './card.entity';
import { CardsController } from './cards.controller';
import { CardsRepository } from './cards.repository';
import { CardsService } from './cards.service';

/**
 * Saved questions, models and metrics. The store other modules read them through (CARD_STORE) is provided by
 * ContentModule, so that the query modules this one uses never depend on it.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Card]), CollectionsModule, DatasetModule, RevisionsModule, SearchModule, BookmarksModule, WarehouseModule, TablesModule, FieldsModule],
  // CardDetailsController first: its literal paths (`embeddable`, `public`, `related`) must match before `:id`.
  controllers: [CardDetailsController, CardsController, CardExportController],
  providers: [CardsRepository, CardAccessService, CardHydrator, CardListService, CardQueriesService, CardsService, CardItemsSource,
    CardSeriesService, CardRelatedService, CardParamsService, CardMetadataService, CardSharingService],
  // For the dashboard-queries module: cards run in a dashboard's context.
  exports: [CardAccessService, CardQueriesService, CardParamsService, CardsService],
})
export class CardsModule implements OnModuleInit {
  constructor(
    private readonly registry: CollectionItemsRegistry,
    private readonly items: CardItemsSource,
  ) {}

  onModuleInit(): void {
    this.registry.register(this.items);
  }
}
