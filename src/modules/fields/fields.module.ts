import { Module } from '@nestjs/common';
import { DatabasesModule } from '../databases';
import { SyncModule } from '../sync';
import { RowSecurityModule } from '../row-security';
import { WarehouseModule } from '../warehouse';
import { FieldDataService } from './field-data.service';
import { FieldMetadataCache } from './field-metadata.cache';
import { FieldHydrator } from './field-hydrator';
import { FieldRemappingService } from './field-remapping.service';
import { FieldValuesService } from './field-values.service';
import { FieldsController } from './fields.controller';
import { FieldsRepository } from './fields.repository';
import { FieldsService } from './fields.service';
import { MetadataAccess } from './metadata-access.service';
import { PolicyLookups } from './policy-lookups';

/** Field metadata (GET/PUT /api/field/...), and the lookups and hydration the table endpoints share. */
@Module({
  imports: [DatabasesModule, WarehouseModule, SyncModule, RowSecurityModule],
  controllers: [FieldsController],
  providers: [
    FieldsRepository,
    MetadataAccess,
    FieldHydrator,
    FieldMetadataCache,
    FieldValuesService,
    FieldDataService,
    FieldRemappingService,
    FieldsService,
    PolicyLookups,
  ],
  exports: [
    FieldsRepository,
    MetadataAccess,
    FieldHydrator,
    FieldMetadataCache,
    FieldValuesService,
    FieldDataService,
    FieldRemappingService,
    PolicyLookups,
  ],
})
export class FieldsModule {}
