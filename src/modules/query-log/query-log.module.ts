import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QueryExecution } from '../../schema/query-execution.entity';
import { QueryLogRepository } from './query-log.repository';
import { QueryLogService } from './query-log.service';

/** The execution log: the dataset module records every query it runs here (and the query cache reads it). */
@Module({
  imports: [TypeOrmModule.forFeature([QueryExecution])],
  providers: [QueryLogRepository, QueryLogService],
  exports: [QueryLogService],
})
export class QueryLogModule {}
