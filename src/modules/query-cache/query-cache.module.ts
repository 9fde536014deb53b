import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueryCacheEntry } from './query-cache.entity';
import { QueryCachePolicy } from './query-cache.policy';
import { QueryCacheRepository } from './query-cache.repository';
import { QueryCacheService } from './query-cache.service';

/** Global: the modules that run saved questions (dataset, cards, dashboards) read and fill the same cache. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([QueryCacheEntry])],
  providers: [QueryCacheRepository, QueryCacheService, QueryCachePolicy],
  exports: [QueryCacheService, QueryCachePolicy],
})
export class QueryCacheModule {}
