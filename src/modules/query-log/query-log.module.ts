import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueryExecution } from './query-execution.entity';
import { QueryLogRepository } from './query-log.repository';
import { QueryLogService } from './query-log.service';

/** Global: every module that runs queries (dataset, cards, dashboards, public, embed) records them here. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([QueryExecution])],
  providers: [QueryLogRepository, QueryLogService],
  exports: [QueryLogService],
})
export class QueryLogModule {}
