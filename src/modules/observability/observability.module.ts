import { Global, Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';

/**
 * Prometheus metrics of the server (queries, cache, syncs, pools, HTTP), on their own port. Global: the modules that
 * report inject MetricsService optionally.
 */
@Global()
@Module({
  providers: [MetricsService],
  exports: [MetricsService],
})
export class ObservabilityModule {}
