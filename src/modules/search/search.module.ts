import { Module, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { CollectionSaved, CollectionsDeleted, CollectionsModule } from '../collections';
import { WarehouseModule } from '../warehouse';
import { SearchReindexOnBoot } from './search-reindex.boot';
import { SearchController } from './search.controller';
import { SearchDetailsRepository } from './search-details.repository';
import { SearchIndexRepository } from './search-index.repository';
import { SearchIndexService } from './search-index.service';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/**
 * GET /api/search, and the word index behind it: the modules that save searchable objects (cards, dashboards) write
 * it in their transactions through SearchIndexService; collections, below this module, tell it through the event bus.
 */
@Module({
  imports: [CollectionsModule, WarehouseModule],
  controllers: [SearchController],
  providers: [SearchIndexService, SearchIndexRepository, SearchService, SearchRepository, SearchDetailsRepository, SearchReindexOnBoot],
  exports: [SearchIndexService],
})
export class SearchModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly index: SearchIndexService,
  ) {}

  onModuleInit(): void {
    this.bus.on(CollectionSaved, (e) => this.index.index(e.tx, 'collection', e.collectionId, { name: e.name, description: e.description }));
    this.bus.on(CollectionsDeleted, async (e) => {
      for (const id of e.collectionIds) await this.index.remove(e.tx, 'collection', id);
    });
  }
}
