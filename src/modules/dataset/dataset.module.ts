import { Module } from '@nestjs/common';
import { DatabasesModule } from '../databases/databases.module';
import { FieldsModule } from '../fields/fields.module';
import { SnippetsModule } from '../snippets/snippets.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { DatasetMetadataService } from './dataset-metadata.service';
import { ContentRegistry } from './content.registry';
import { DatasetController } from './dataset.controller';
import { DatasetExportController } from './dataset-export.controller';
import { DatasetService } from './dataset.service';
import { MetadataCache } from './metadata-cache';
import { ParameterValuesService } from './parameter-values.service';
import { PivotService } from './pivot.service';
import { QueryMetadataRepository } from './query-metadata.repository';

@Module({
  imports: [WarehouseModule, SnippetsModule, FieldsModule, DatabasesModule],
  // DatasetExportController's `:export-format` last: the literal routes of DatasetController match first.
  controllers: [DatasetController, DatasetExportController],
  providers: [DatasetService, PivotService, DatasetMetadataService, ParameterValuesService, ContentRegistry, MetadataCache, QueryMetadataRepository],
  exports: [DatasetService, PivotService, ParameterValuesService, DatasetMetadataService, ContentRegistry],
})
export class DatasetModule {}
