import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseField } from '../fields/field.entity';
import { SyncModule } from '../sync/sync.module';
import { WarehouseTable } from '../tables/table.entity';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { WarehouseDatabase } from './database.entity';
import { DataPermissionsController } from './data-permissions.controller';
import { DataPermissionsService } from './data-permissions.service';
import { DatabasesController } from './databases.controller';
import { DatabasesRepository } from './databases.repository';
import { DatabasesService } from './databases.service';
import { SampleDatabaseLoader } from './sample-database.loader';

@Module({
  imports: [TypeOrmModule.forFeature([WarehouseDatabase, WarehouseTable, WarehouseField]), WarehouseModule, SyncModule],
  controllers: [DatabasesController, DataPermissionsController],
  providers: [DatabasesRepository, DatabasesService, DataPermissionsService, SampleDatabaseLoader],
  exports: [DatabasesService, DatabasesRepository],
})
export class DatabasesModule {}
