import { Module } from '@nestjs/common';
import { FieldsModule } from '../fields/fields.module';
import { SyncModule } from '../sync/sync.module';
import { TableMetadataService } from './table-metadata.service';
import { TablesController } from './tables.controller';
import { TablesRepository } from './tables.repository';
import { TablesService } from './tables.service';

/** Table metadata (GET/PUT /api/table/...). Saved questions appear as virtual tables through CARD_STORE. */
@Module({
  imports: [FieldsModule, SyncModule],
  controllers: [TablesController],
  providers: [TablesRepository, TablesService, TableMetadataService],
  exports: [TableMetadataService],
})
export class TablesModule {}
