import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { WarehouseDatabase } from '../../schema/database.entity';
import { Dimension } from '../../schema/dimension.entity';
import { FieldValues } from '../../schema/field-values.entity';
import { WarehouseField } from '../../schema/field.entity';
import { WarehouseTable } from '../../schema/table.entity';
import { WarehouseModule } from '../warehouse';
import { SyncRun } from '../../schema/sync-run.entity';
import { SyncRepository } from './sync.repository';
import { SyncScheduler } from './sync.scheduler';
import { SyncService } from './sync.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([WarehouseDatabase, WarehouseTable, WarehouseField, FieldValues, Dimension, SyncRun]),
    WarehouseModule,
  ],
  providers: [SyncRepository, SyncService, SyncScheduler],
  exports: [SyncService, SyncRepository],
})
export class SyncModule {}
