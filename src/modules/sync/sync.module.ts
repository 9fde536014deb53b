import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseDatabase } from '../databases/database.entity';
import { Dimension } from '../fields/dimension.entity';
import { FieldValues } from '../fields/field-values.entity';
import { WarehouseField } from '../fields/field.entity';
import { WarehouseTable } from '../tables/table.entity';
import { WarehouseModule } from '../warehouse/warehouse.module';
import { SyncRun } from './sync-run.entity';
import { SyncRepository } from './sync.repository';
import { SyncScheduler } from './sync.scheduler';
import { SyncService } from './sync.service';

@Module({
  imports: [TypeOrmModule.forFeature([WarehouseDatabase, WarehouseTable, WarehouseField, FieldValues, Dimension, SyncRun]), WarehouseModule],
  providers: [SyncRepository, SyncService, SyncScheduler],
  exports: [SyncService, SyncRepository],
})
export class SyncModule {}
