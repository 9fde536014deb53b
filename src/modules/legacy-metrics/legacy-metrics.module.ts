import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CollectionsModule } from '../collections/collections.module';
import { DatasetModule } from '../dataset/dataset.module';
import { RevisionsModule } from '../revisions/revisions.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { LegacyMetricsRepository } from './legacy-metrics.repository';
import { LegacyMetricsService } from './legacy-metrics.service';
import { MacroHydrator } from './macro-hydrator';
import { MacroRelatedService } from './macro-related.service';
import { LegacyMetric, MetricImportantField, Segment } from './macro.entity';
import { MetricsController } from './metrics.controller';
import { SegmentsController } from './segments.controller';

/**
 * Legacy segments and metrics (/api/segment, /api/metric): one module, since the two differ only in a column and one
 * route. At start-up it registers both with the revisions module and hands their definitions to the query engine.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Segment, LegacyMetric, MetricImportantField]), RevisionsModule, DatasetModule, WarehouseModule, CollectionsModule],
  controllers: [SegmentsController, MetricsController],
  providers: [LegacyMetricsRepository, LegacyMetricsService, MacroHydrator, MacroRelatedService],
  // The table, field, card and dataset answers read the segments and metrics of their tables through MACRO_STORE
  // (this module's DbMacroStore, provided by ContentModule), not through this module, which depends on theirs.
  exports: [LegacyMetricsService],
})
export class LegacyMetricsModule {}
