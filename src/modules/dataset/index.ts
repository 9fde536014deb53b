export { DatasetMetadataService } from './dataset-metadata.service';
export { isMappingList, MAPPING_MSG, ParameterList, ParameterMappingList } from './dataset.dto';
export { DatasetModule } from './dataset.module';
export { type DatasetAnswer, DatasetService, type DatasetStream } from './dataset.service';
export { mergedVisualizationSettings } from './export/export-columns';
export {
  cardExportSpec,
  downloadContext,
  EXPORT_FORMATS,
  EXPORT_MAX_ROWS,
  type ExportFormat,
  parseDownloadRequest,
} from './export/export-request';
export { writeExport } from './export/write-export';
export { PARAMETER_VALUES_MAX, type ParameterLike, type ParameterValues, ParameterValuesService } from './parameter-values.service';
export { PivotService } from './pivot.service';
export { QueryContent } from './query-content';
