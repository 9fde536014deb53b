export { SearchIndexService } from './search-index.service';
export { SearchModule } from './search.module';
