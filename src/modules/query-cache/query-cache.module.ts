import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueryCacheEntry } from '../../schema/query-cache.entity';
import { QueryLogModule } from '../query-log';
import { QueryCachePolicy } from './query-cache.policy';
import { QueryCacheRepository } from './query-cache.repository';
import { QueryCacheService } from './query-cache.service';

/** The cache of query results, which the modules that run queries (dataset, cards, public sharing) read and fill. */
@Module({
  imports: [TypeOrmModule.forFeature([QueryCacheEntry]), QueryLogModule],
  providers: [QueryCacheRepository, QueryCacheService, QueryCachePolicy],
  exports: [QueryCacheService, QueryCachePolicy],
})
export class QueryCacheModule {}
