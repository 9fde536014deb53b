export { CardMetadataQuery, CardSourceQuery, PersistedTableQuery, type CardColumn, type CardForMetadata } from './card-queries';
export {
  SegmentMetricDefinitionQuery,
  segmentsMetricsOf,
  SegmentsMetricsOfTablesQuery,
  type SegmentMetricKind,
  type SegmentMetricView,
} from './segment-metric-queries';
export { comparableDefinition, contextForms, rankBySimilarity, similarity } from './similarity';
