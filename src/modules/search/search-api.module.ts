import { Module } from '@nestjs/common';
import { CollectionsModule } from '../collections/collections.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { SearchReindexOnBoot } from './search-reindex.boot';
import { SearchController } from './search.controller';
import { SearchModule } from './search.module';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/**
 * GET /api/search. Apart from SearchModule (the index that cards and collections write while saving), so that
 * those modules can import the index without a cycle through the access services this one reads.
 */
@Module({
  imports: [SearchModule, CollectionsModule, WarehouseModule],
  controllers: [SearchController],
  providers: [SearchService, SearchRepository, SearchReindexOnBoot],
})
export class SearchApiModule {}
