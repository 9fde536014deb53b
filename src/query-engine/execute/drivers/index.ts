import type { FileDetails, ServerDetails } from './details';
import type { DriverOptions, Engine, WarehouseDriver } from './driver';
import { LazyDriver } from './lazy-driver';
import { PostgresDriver } from './postgres.driver';
import { SqliteDriver } from './sqlite.driver';

export * from './driver';
export * from './errors';
export { baseTypeFor } from './base-types';
export { validateDetails, type DetailsContext, type FileDetails, type ServerDetails } from './details';

/** `details` must come from validateDetails() for the same engine. */
export function createDriver(engine: Engine, details: ServerDetails | FileDetails, options: DriverOptions = {}): WarehouseDriver {
  switch (engine) {
    case 'postgres':
      return new PostgresDriver(details as ServerDetails, options);
    case 'mysql':
      return new LazyDriver('mysql', async () => new (await import('./mysql.driver')).MysqlDriver(details as ServerDetails, options));
    case 'sqlite':
      return new SqliteDriver(details as FileDetails, options);
    case 'duckdb':
      return new LazyDriver('duckdb', async () => new (await import('./duckdb.driver')).DuckDbDriver(details as FileDetails, options));
  }
}
