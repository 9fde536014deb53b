import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKey } from '../api-keys/api-key.entity';
import { PermissionsGroup } from '../permissions/permissions-group.entity';
import { User } from '../users/user.entity';
import { UsersModule } from '../users/users.module';
import { appDbPoolStats, ConnectionPoolRegistry } from './connection-pools';
import { DiagnosticsService } from './diagnostics.service';
import { ProductFeedback } from './product-feedback.entity';
import { UtilController } from './util.controller';
import { UtilRepository } from './util.repository';
import { UtilService } from './util.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProductFeedback, User, PermissionsGroup, ApiKey]), UsersModule],
  controllers: [UtilController],
  providers: [
    UtilRepository,
    UtilService,
    DiagnosticsService,
    {
      provide: ConnectionPoolRegistry,
      inject: [DataSource],
      useFactory: (db: DataSource) => {
        const registry = new ConnectionPoolRegistry();
        registry.register('app-db', () => appDbPoolStats(db));
        return registry;
      },
    },
  ],
  // Warehouse modules import this module to register their pools.
  exports: [ConnectionPoolRegistry],
})
export class UtilModule {}
