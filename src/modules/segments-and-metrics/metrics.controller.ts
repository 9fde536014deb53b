import { Body, Controller, Param, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { ImportantFieldsDto } from './segments-and-metrics.dto';
import { SegmentMetricRelatedService } from './segment-metric-related.service';
import { SegmentMetricRoutes } from './segment-metric-routes';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';

/** /api/metric (spec "Metric (v0.44)"): saved aggregations on a table, and the important fields of the Getting Started guide. */
@Controller('api/metric')
export class MetricsController extends SegmentMetricRoutes {
  protected readonly kind = 'metric';

  // Declared here so that Nest reads what to inject from this class (the shared routes' class is not decorated).
  constructor(service: SegmentsAndMetricsService, related: SegmentMetricRelatedService) {
    super(service, related);
  }

  @Put(':id/important_fields')
  @Access('admin')
  importantFields(@Param('id', IdParam()) id: number, @Body() body: ImportantFieldsDto) {
    return this.service.setImportantFields(id, body.important_field_ids);
  }
}
