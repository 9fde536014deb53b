import { Module } from '@nestjs/common';
import { SearchIndexService } from './search-index.service';

/** The word index, for the modules that save searchable objects; GET /api/search is SearchApiModule. */
@Module({
  providers: [SearchIndexService],
  exports: [SearchIndexService],
})
export class SearchModule {}
