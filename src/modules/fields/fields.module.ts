import { Module } from '@nestjs/common';
import { DatabasesModule } from '../databases/databases.module';
import { SyncModule } from '../sync/sync.module';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { FieldDataService } from './field-data.service';
import { FieldHydrator } from './field-hydrator';
import { FieldValuesService } from './field-values.service';
import { FieldsController } from './fields.controller';
import { FieldsRepository } from './fields.repository';
import { FieldsService } from './fields.service';
import { MetadataAccess } from './metadata-access.service';

/** Field metadata (GET/PUT /api/field/...), and the lookups and hydration the table endpoints share. */
@Module({
  imports: [DatabasesModule, WarehouseModule, SyncModule],
  controllers: [FieldsController],
  providers: [FieldsRepository, MetadataAccess, FieldHydrator, FieldValuesService, FieldDataService, FieldsService],
  exports: [FieldsRepository, MetadataAccess, FieldHydrator, FieldValuesService, FieldDataService],
})
export class FieldsModule {}
