import { Module } from '@nestjs/common';
import { DatabasesModule } from '../databases';
import { FieldsModule } from '../fields';
import { QueryCacheModule } from '../query-cache';
import { QueryLogModule } from '../query-log';
import { RowSecurityModule } from '../row-security';
import { SnippetsModule } from '../snippets';
import { WarehouseModule } from '../warehouse';
import { DatasetMetadataService } from './dataset-metadata.service';
import { QueryContent } from './query-content';
import { DatasetController } from './dataset.controller';
import { DatasetParameterController } from './dataset-parameter.controller';
import { DatasetService } from './dataset.service';
import { MetadataCache } from './metadata-cache';
import { ParameterValuesService } from './parameter-values.service';
import { PivotService } from './pivot.service';
import { QueryMetadataRepository } from './query-metadata.repository';

@Module({
  imports: [WarehouseModule, SnippetsModule, FieldsModule, DatabasesModule, QueryCacheModule, QueryLogModule, RowSecurityModule],
  controllers: [DatasetController, DatasetParameterController],
  providers: [
    DatasetService,
    PivotService,
    DatasetMetadataService,
    ParameterValuesService,
    QueryContent,
    MetadataCache,
    QueryMetadataRepository,
  ],
  exports: [DatasetService, PivotService, ParameterValuesService, DatasetMetadataService, QueryContent],
})
export class DatasetModule {}
