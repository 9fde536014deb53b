import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BookmarksModule } from '../bookmarks';
import { EventBus } from '../../common/events/event-bus';
import { CollectionsModule, subscribeItemSource } from '../collections';
import { CardMetadataQuery, CardSourceQuery } from '../content';
import { DatasetModule } from '../dataset';
import { QueryCacheModule } from '../query-cache';
import { RevisionsModule } from '../revisions';
import { SearchModule } from '../search';
import { WarehouseModule } from '../warehouse';
import { TablesModule } from '../tables';
import { FieldsModule } from '../fields';
import { CardAccessService } from './card-access.service';
import { CardDashboardsService } from './card-dashboards.service';
import { CardDetailsController } from './card-details.controller';
import { CardMetadataService } from './card-metadata.service';
import { CardParamsController } from './card-params.controller';
import { CardParamsService } from './card-params.service';
import { CardRelatedController } from './card-related.controller';
import { CardRelatedService } from './card-related.service';
import { CardSeriesService } from './card-series.service';
import { CardSharingService } from './card-sharing.service';
import { CardHydrator } from './card-hydrator';
import { CardItemsSource } from './card-items.source';
import { CardListService } from './card-list.service';
import { CardQueriesService } from './card-queries.service';
import { CardQueryController } from './card-query.controller';
import { CardRunner } from './card-runner.service';
import { Card } from '../../schema/card.entity';
import { CardsBulkController } from './cards-bulk.controller';
import { CardsController } from './cards.controller';
import { CardsRepository } from './cards.repository';
import { CardsService } from './cards.service';
import { CardStore } from './card-store';

/**
 * Saved questions, models and metrics. The modules below this one (tables, fields, dataset: this module runs its
 * queries through them) read cards by asking the event bus (the content module's card queries), which CardStore
 * answers; the modules above import this one and read cards through what it exports.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Card]),
    CollectionsModule,
    DatasetModule,
    QueryCacheModule,
    RevisionsModule,
    SearchModule,
    BookmarksModule,
    WarehouseModule,
    TablesModule,
    FieldsModule,
  ],
  controllers: [
    CardsController,
    CardQueryController,
    CardParamsController,
    CardRelatedController,
    CardDetailsController,
    CardsBulkController,
  ],
  providers: [
    CardsRepository,
    CardAccessService,
    CardHydrator,
    CardListService,
    CardQueriesService,
    CardRunner,
    CardsService,
    CardItemsSource,
    CardSeriesService,
    CardRelatedService,
    CardParamsService,
    CardMetadataService,
    CardSharingService,
    CardDashboardsService,
    CardStore,
  ],
  // For the modules above (dashboards, dashboard-queries, sharing, actions...): cards read and run in their context.
  exports: [CardsRepository, CardAccessService, CardQueriesService, CardRunner, CardParamsService, CardsService, CardStore],
})
export class CardsModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly items: CardItemsSource,
    private readonly store: CardStore,
  ) {}

  onModuleInit(): void {
    subscribeItemSource(this.bus, this.items);
    this.bus.answer(CardSourceQuery, (q) => this.store.source(q.id, q.caller));
    this.bus.answer(CardMetadataQuery, (q) => this.store.resultMetadata(q.id, q.caller));
  }
}
