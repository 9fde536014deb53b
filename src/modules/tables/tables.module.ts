import { Module } from '@nestjs/common';
import { FieldsModule } from '../fields';
import { SyncModule } from '../sync';
import { RowSecurityModule } from '../row-security';
import { WarehouseModule } from '../warehouse';
import { TableMetadataService } from './table-metadata.service';
import { TablesController } from './tables.controller';
import { TablesRepository } from './tables.repository';
import { TablesService } from './tables.service';

/** Table metadata (GET/PUT /api/table/...). Saved questions appear as virtual tables through the content module's CardMetadataQuery. */
@Module({
  imports: [FieldsModule, SyncModule, WarehouseModule, RowSecurityModule],
  controllers: [TablesController],
  providers: [TablesRepository, TablesService, TableMetadataService],
  exports: [TableMetadataService],
})
export class TablesModule {}
