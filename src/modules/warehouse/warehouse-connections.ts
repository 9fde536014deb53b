import * as path from 'node:path';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import { SecretBox } from '../../common/crypto/secret-box';
import {
  createDriver,
  DetailsError,
  Engine,
  FileDetails,
  ServerDetails,
  validateDetails,
  WarehouseDriver,
} from '../../query-engine/execute/drivers';
import { canonical } from '../../query-engine/execute/drivers/details';
import { ConnectionPoolRegistry } from '../../common/database/connection-pools';
import { openDetails } from './database-details';
import { SharedRuns } from '../../query-engine/execute/shared-runs';
import { QuerySlots } from './query-slots';
import { WarehouseDatabase } from '../../schema/database.entity';

/**
 * Connections in the pool of a warehouse database, and so queries that may run on it at once (QuerySlots). A pooled
 * SQLite connection is a child process (~40 MB) so a runaway query can be killed; keep few.
 */
export function warehousePoolSize(engine: Engine): number {
  return engine === 'sqlite' ? 4 : 15;
}

interface Cached {
  driver: WarehouseDriver;
  /** What the driver was made from: a new name or cache setting keeps the pool, changed details replace it. */
  version: string;
}

/**
 * One driver (with its pool) per connected database, opened on first use and reused. A changed database gets a
 * fresh driver; every pool shows in the connection-pool diagnostics and closes at shutdown.
 */
@Injectable()
export class WarehouseConnections implements OnApplicationShutdown {
  private readonly drivers = new Map<number, Cached>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SecretBox,
    private readonly pools: ConnectionPoolRegistry,
    private readonly slots: QuerySlots,
    private readonly sharedRuns: SharedRuns,
  ) {}

  /**
   * Validates details for an engine (file paths confined to the data directories). The app database lives in the
   * data directory too, and is never a warehouse: it holds password hashes and the instance's secrets.
   */
  validate(engine: Engine, details: unknown): ServerDetails | FileDetails {
    const valid = validateDetails(engine, details, { dataDir: this.config.dataDir, allowedDirs: this.config.allowedFileDirs });
    if ('db' in valid) {
      const appDb = canonical(path.resolve(this.config.sqlitePath));
      if (valid.db === appDb || valid.db.startsWith(`${appDb}-`))
        throw new DetailsError('db', 'db cannot be the app database of this server.');
    }
    return valid;
  }

  /** A short-lived driver for details not stored yet (the connection test before a database is saved). */
  async withTemporary<T>(engine: Engine, details: ServerDetails | FileDetails, work: (d: WarehouseDriver) => Promise<T>): Promise<T> {
    const driver = createDriver(engine, details, { maxPoolSize: 1, ...this.duckdbLimits() });
    try {
      return await work(driver);
    } finally {
      await driver.close().catch(() => undefined);
    }
  }

  driverFor(db: Pick<WarehouseDatabase, 'id' | 'engine' | 'details'>): WarehouseDriver {
    const version = `${db.engine}\u0000${JSON.stringify(db.details)}`;
    const cached = this.drivers.get(db.id);
    if (cached && cached.version === version) return cached.driver;
    if (cached) void this.evict(db.id);
    const details = this.validate(db.engine, openDetails(db.details, this.secrets));
    const driver = createDriver(db.engine, details, { maxPoolSize: warehousePoolSize(db.engine), ...this.duckdbLimits() });
    this.drivers.set(db.id, { driver, version });
    // The pool's figures, the query queue in front of it, and the runs in flight that identical queries share.
    this.pools.register(`db-${db.id}`, () => {
      const shared = this.sharedRuns.stats(driver);
      return { ...driver.poolInfo(), ...this.slots.info(db.id), numSharedRuns: shared.runs, numQueriesOnSharedRuns: shared.readers };
    });
    return driver;
  }

  private duckdbLimits() {
    return { memoryLimit: this.config.duckdbMemoryLimit, threads: this.config.duckdbThreads };
  }

  async evict(dbId: number): Promise<void> {
    const cached = this.drivers.get(dbId);
    if (!cached) return;
    this.drivers.delete(dbId);
    this.pools.unregister(`db-${dbId}`);
    await cached.driver.close().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.drivers.keys()].map((id) => this.evict(id)));
  }
}
