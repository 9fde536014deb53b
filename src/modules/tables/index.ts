export { DIMENSION_OPTIONS, fieldDimensionOptions } from './dimension-options';
export { TableMetadataService } from './table-metadata.service';
export { TablesModule } from './tables.module';
export { ROOT_COLLECTION_SCHEMA, virtualField } from './virtual-field';
