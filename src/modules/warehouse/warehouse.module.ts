import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseAccessService } from './database-access.service';
import { DatabasePermission } from './database-permission.entity';
import { DatabasePermissionsRepository } from './database-permissions.repository';
import { DeletionHooks } from './deletion-hooks';
import { QuerySlots } from './query-slots';
import { WarehouseConnections } from './warehouse-connections';

/** What every warehouse-facing module shares: open connections to the databases, and who may use them. */
@Module({
  imports: [TypeOrmModule.forFeature([DatabasePermission])],
  providers: [WarehouseConnections, DatabasePermissionsRepository, DatabaseAccessService, QuerySlots, DeletionHooks],
  exports: [WarehouseConnections, DatabasePermissionsRepository, DatabaseAccessService, QuerySlots, DeletionHooks],
})
export class WarehouseModule {}
