import { Module, OnModuleInit } from '@nestjs/common';
import { EventBus } from '../../common/events/event-bus';
import { SegmentsMetricsOfTablesQuery } from '../content';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections';
import { DatasetModule } from '../dataset';
import { RevisionsModule } from '../revisions';
import { WarehouseModule } from '../warehouse';
import { SegmentsAndMetricsRepository } from './segments-and-metrics.repository';
import { SegmentsAndMetricsService } from './segments-and-metrics.service';
import { SegmentMetricHydrator } from './segment-metric-hydrator';
import { SegmentMetricRelatedService } from './segment-metric-related.service';
import { SegmentMetricStore } from './segment-metric-store';
import { LegacyMetric, MetricImportantField, Segment } from '../../schema/segment-metric.entity';
import { MetricsController } from './metrics.controller';
import { SegmentsController } from './segments.controller';

/**
 * Segments and metrics, Metabase's saved filters and aggregations on a table (its "legacy metrics", v1: not the
 * metric cards), at /api/segment and /api/metric: one module, since the two differ only in a column and one route.
 * At start-up it offers both to the revisions module and the query engine (SegmentsAndMetricsService), and answers
 * the content module's SegmentsMetricsOfTablesQuery, through which the table, field, card and dataset answers (whose
 * modules this one depends on) read the segments and metrics of their tables.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Segment, LegacyMetric, MetricImportantField]),
    RevisionsModule,
    DatasetModule,
    WarehouseModule,
    CollectionsModule,
  ],
  controllers: [SegmentsController, MetricsController],
  providers: [
    SegmentsAndMetricsRepository,
    SegmentsAndMetricsService,
    SegmentMetricHydrator,
    SegmentMetricRelatedService,
    SegmentMetricStore,
  ],
  exports: [SegmentsAndMetricsService],
})
export class SegmentsAndMetricsModule implements OnModuleInit {
  constructor(
    private readonly bus: EventBus,
    private readonly store: SegmentMetricStore,
  ) {}

  onModuleInit(): void {
    this.bus.answer(SegmentsMetricsOfTablesQuery, (q) => this.store.onTables(q.kind, q.tableIds));
  }
}
