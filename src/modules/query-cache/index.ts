export { cacheKey } from './query-cache-key';
export { QueryCacheModule } from './query-cache.module';
export { QueryCachePolicy } from './query-cache.policy';
export { QueryCacheService } from './query-cache.service';
