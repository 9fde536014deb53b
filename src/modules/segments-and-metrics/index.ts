export { SegmentsAndMetricsModule } from './segments-and-metrics.module';
