import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConnectionPoolRegistry } from '../../common/database/connection-pools';

/** Seconds: from a cached answer (a few ms) to a long warehouse query. */
const QUERY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SYNC_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800];

/**
 * The server's Prometheus metrics in a registry of their own (one per app: tests run several apps in one
 * process). Pools are read when scraped; the rest is counted as it happens. Process metrics (heap, RSS,
 * event-loop delay, GC) are prom-client's defaults.
 */
export function createMetrics(pools: ConnectionPoolRegistry) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const poolGauge = (name: string, help: string, labelNames: string[], value: (s: ReturnType<ConnectionPoolRegistry['snapshot']>[string]) => Record<string, number>) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset(); // a closed pool's series goes away
        for (const [pool, stats] of Object.entries(pools.snapshot())) {
          for (const [label, n] of Object.entries(value(stats))) this.set(label ? { pool, state: label } : { pool }, n);
        }
      },
    });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'analytics_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (never the raw URL) and status',
      labelNames: ['method', 'route', 'status'],
      buckets: HTTP_BUCKETS,
      registers: [registry],
    }),
    queryDuration: new Histogram({
      name: 'analytics_query_duration_seconds',
      help: 'Warehouse query runs by engine and outcome (completed or failed); cache hits are not runs',
      labelNames: ['engine', 'outcome'],
      buckets: QUERY_BUCKETS,
      registers: [registry],
    }),
    cacheLookups: new Counter({
      name: 'analytics_query_cache_lookups_total',
      help: 'Query cache lookups by result (hit or miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    syncDuration: new Histogram({
      name: 'analytics_sync_run_duration_seconds',
      help: 'Warehouse sync runs on this instance by kind and outcome (succeeded or failed)',
      labelNames: ['kind', 'outcome'],
      buckets: SYNC_BUCKETS,
      registers: [registry],
    }),
    pools: [
      poolGauge('analytics_connection_pool_connections', 'Open connections of each pool (app-db, db-<id>) by state', ['pool', 'state'], (s) => ({
        busy: s.numBusyConnections,
        idle: s.numIdleConnections,
      })),
      poolGauge('analytics_connection_pool_waiters', 'Requests waiting for a connection of each pool', ['pool'], (s) => ({ '': s.numWaiting })),
      poolGauge('analytics_connection_pool_max', 'Largest size of each pool', ['pool'], (s) => ({ '': s.maxPoolSize })),
    ],
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
