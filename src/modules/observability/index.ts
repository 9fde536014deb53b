export { ObservabilityModule } from './observability.module';
export { MetricsService } from './metrics.service';
