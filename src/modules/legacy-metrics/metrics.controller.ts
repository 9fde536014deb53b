import { Body, Param, Put } from '@nestjs/common';
import { Access } from '../../common/auth/access.decorator';
import { IdParam } from '../../common/validation/pipes';
import { ImportantFieldsDto } from './legacy-metrics.dto';
import { LegacyMetricsService } from './legacy-metrics.service';
import { MacroRelatedService } from './macro-related.service';
import { macroController } from './macro.controller';

/** /api/metric (spec "Metric (v0.44)"): the shared routes and the important fields of the Getting Started guide. */
export class MetricsController extends macroController('metric') {
  constructor(
    private readonly metrics: LegacyMetricsService,
    related: MacroRelatedService,
  ) {
    super(metrics, related);
  }

  @Put(':id/important_fields')
  @Access('admin')
  importantFields(@Param('id', IdParam()) id: number, @Body() body: ImportantFieldsDto) {
    return this.metrics.setImportantFields(id, body.important_field_ids);
  }
}
