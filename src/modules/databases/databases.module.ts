import { Module } from '@nestjs/common';
import { RowSecurityModule } from '../row-security';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseField } from '../../schema/field.entity';
import { SyncModule } from '../sync';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseModule } from '../warehouse';
import { WarehouseDatabase } from '../../schema/database.entity';
import { DataPermissionsController } from './data-permissions.controller';
import { DataPermissionsService } from './data-permissions.service';
import { DatabaseChecksService } from './database-checks.service';
import { DatabasesController } from './databases.controller';
import { DatabasesRepository } from './databases.repository';
import { DatabasesService } from './databases.service';
import { SampleDatabaseLoader } from './sample-database.loader';

@Module({
  imports: [TypeOrmModule.forFeature([WarehouseDatabase, WarehouseTable, WarehouseField]), WarehouseModule, SyncModule, RowSecurityModule],
  controllers: [DatabasesController, DataPermissionsController],
  providers: [DatabasesRepository, DatabasesService, DatabaseChecksService, DataPermissionsService, SampleDatabaseLoader],
  exports: [DatabasesService, DatabasesRepository],
})
export class DatabasesModule {}
