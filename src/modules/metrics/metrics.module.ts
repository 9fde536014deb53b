import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/** Global: the modules that report (queries, cache, syncs) inject MetricsService optionally. */
@Global()
@Module({
  providers: [MetricsService],
  exports: [MetricsService],
})
export class MetricsModule {}
