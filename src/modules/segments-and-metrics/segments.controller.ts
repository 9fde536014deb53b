import { Controller } from '@nestjs/common';
import { SegmentMetricRelatedService } from './segment-metric-related.service';
import { SegmentMetricRoutes } from './segment-metric-routes';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';

/** /api/segment (spec "Segment (v0.48)"): saved filters on a table. */
@Controller('api/segment')
export class SegmentsController extends SegmentMetricRoutes {
  protected readonly kind = 'segment';

  // Declared here so that Nest reads what to inject from this class (the shared routes' class is not decorated).
  constructor(service: SegmentsAndMetricsService, related: SegmentMetricRelatedService) {
    super(service, related);
  }
}
