import { FactoryProvider, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DatabaseAccessService } from './database-access.service';
import { DatabasePermission } from '../../schema/database-permission.entity';
import { TablePermission } from '../../schema/table-permission.entity';
import { DatabasePermissionsRepository } from './database-permissions.repository';
import { SharedRuns } from '../../query-engine/execute/shared-runs';
import { MetricsService } from '../observability';
import { QuerySlots } from './query-slots';
import { RequestAdmission } from './request-admission';
import { WarehouseConnections } from './warehouse-connections';

/** Identical queries in flight share one run; each query that joins one is counted in the metrics. */
const sharedRuns: FactoryProvider<SharedRuns> = {
  provide: SharedRuns,
  useFactory: (metrics?: MetricsService) => new SharedRuns({ joined: (dbId) => metrics?.queryShared(`db-${dbId}`) }),
  inject: [{ token: MetricsService, optional: true }],
};

/**
 * What every warehouse-facing module shares: open connections to the databases, who may use them, the query slots
 * in front of their pools, each user's turn at having their query requests worked on, and the runs in flight that
 * identical queries share.
 */
@Module({
  imports: [TypeOrmModule.forFeature([DatabasePermission, TablePermission])],
  providers: [WarehouseConnections, DatabasePermissionsRepository, DatabaseAccessService, QuerySlots, RequestAdmission, sharedRuns],
  exports: [WarehouseConnections, DatabasePermissionsRepository, DatabaseAccessService, QuerySlots, RequestAdmission, SharedRuns],
})
export class WarehouseModule {}
