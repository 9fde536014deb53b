import { DataSource } from 'typeorm';

/** One pool as GET /api/util/diagnostic_info/connection_pool_info shows it. */
export interface PoolStats {
  numConnections: number;
  numIdleConnections: number;
  numBusyConnections: number;
  numWaiting: number;
  maxPoolSize: number;
  /** Warehouse pools: queries waiting for a query slot (the queue in front of the pool; see QueryQueueInfo). */
  numQueuedQueries?: number;
}

/**
 * Connection pools by name. The app DB registers here at boot; warehouse drivers register their pools when they
 * open them (and unregister when they close), so the diagnostics list every pool without knowing the drivers.
 */
export class ConnectionPoolRegistry {
  private readonly pools = new Map<string, () => PoolStats>();

  register(name: string, read: () => PoolStats): void {
    this.pools.set(name, read);
  }

  unregister(name: string): void {
    this.pools.delete(name);
  }

  snapshot(): Record<string, PoolStats> {
    return Object.fromEntries([...this.pools].map(([name, read]) => [name, read()]));
  }
}

interface PgPool {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options: { max?: number };
}

/** Postgres: the pg Pool behind TypeORM. SQLite: better-sqlite3 is one synchronous connection, never seen busy. */
export function appDbPoolStats(db: DataSource): PoolStats {
  if (db.options.type === 'postgres') {
    const pool = (db.driver as unknown as { master?: PgPool }).master;
    if (!pool) return { numConnections: 0, numIdleConnections: 0, numBusyConnections: 0, numWaiting: 0, maxPoolSize: 0 };
    return {
      numConnections: pool.totalCount,
      numIdleConnections: pool.idleCount,
      numBusyConnections: pool.totalCount - pool.idleCount,
      numWaiting: pool.waitingCount,
      maxPoolSize: pool.options.max ?? 10,
    };
  }
  const open = db.isInitialized ? 1 : 0;
  return { numConnections: open, numIdleConnections: open, numBusyConnections: 0, numWaiting: 0, maxPoolSize: 1 };
}
