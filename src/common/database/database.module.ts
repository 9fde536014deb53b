import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { appDbPoolStats, ConnectionPoolRegistry } from './connection-pools';
import { dataSourceOptions } from './data-source-options';
import { runMigrations } from './migration-runner';
import { lockSqliteTransactions } from './sqlite-transaction-lock';

/**
 * The app database: connected, migrated (under a lock on Postgres), then handed to the modules; and the registry
 * of connection pools, where the app DB's is the first and warehouse drivers add theirs.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true }),
      dataSourceFactory: async (options) => {
        const ds = await new DataSource(options!).initialize();
        if (ds.options.type === 'better-sqlite3') lockSqliteTransactions(ds);
        await runMigrations(ds);
        return ds;
      },
    }),
  ],
  providers: [
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
  exports: [ConnectionPoolRegistry],
})
export class DatabaseModule {}
