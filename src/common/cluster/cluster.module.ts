import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { AppLogger } from '../logging/app-logger';
import { ClusterEvents } from './cluster-events';
import { JobLeases } from './job-leases';
import { PgClusterEvents } from './pg-cluster-events';

/**
 * What instances sharing an app DB need of each other: the change bus (LISTEN/NOTIFY on Postgres, in-process on
 * SQLite) and job leases. Global: caches and jobs in any module use them.
 */
@Global()
@Module({
  providers: [
    {
      provide: ClusterEvents,
      inject: [APP_CONFIG, AppLogger, DataSource],
      useFactory: async (config: AppConfig, logger: AppLogger, db: DataSource): Promise<ClusterEvents> => {
        if (!config.databaseUrl) return new ClusterEvents();
        const bus = new PgClusterEvents({
          url: config.databaseUrl,
          logger,
          notify: (channel, payload) => db.query('SELECT pg_notify($1, $2)', [channel, payload]),
        });
        await bus.start();
        return bus;
      },
    },
    {
      provide: JobLeases,
      inject: [DataSource, ClusterEvents],
      useFactory: (db: DataSource, events: ClusterEvents) => new JobLeases(db, events.instanceId),
    },
  ],
  exports: [ClusterEvents, JobLeases],
})
export class ClusterModule implements OnApplicationShutdown {
  constructor(@Inject(ClusterEvents) private readonly events: ClusterEvents) {}

  /** After the other shutdown hooks, which may still publish. */
  async onApplicationShutdown(): Promise<void> {
    await this.events.close();
  }
}
