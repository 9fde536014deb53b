import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConnectionPoolRegistry } from '../../common/database/connection-pools';

/** Seconds: from a cached answer (a few ms) to a long warehouse query. */
const QUERY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SYNC_BUCKETS = [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800];
/** Seconds a query waited for its slot: none at all (most), up to QUERY_QUEUE_TIMEOUT_SECONDS (30 s by default). */
const QUEUE_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The server's Prometheus metrics in a registry of their own (one per app: tests run several apps in one
 * process). Pools are read when scraped; the rest is counted as it happens. Process metrics (heap, RSS,
 * event-loop delay, GC) are prom-client's defaults.
 */
export function createMetrics(pools: ConnectionPoolRegistry) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const poolGauge = (
    name: string,
    help: string,
    labelNames: string[],
    value: (s: ReturnType<ConnectionPoolRegistry['snapshot']>[string]) => Record<string, number>,
  ) =>
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
    queueWait: new Histogram({
      name: 'analytics_query_queue_wait_seconds',
      help:
        'Time each warehouse run waited for a query slot, by pool (db-<id>) and outcome: ran, timed-out (answered 503),' +
        ' or left (its callers went away); queries that joined an identical run in flight do not wait here',
      labelNames: ['pool', 'outcome'],
      buckets: QUEUE_BUCKETS,
      registers: [registry],
    }),
    requestWait: new Histogram({
      name: 'analytics_query_request_wait_seconds',
      help:
        "Time each query request of a user waited for that user's turn (MAX_QUERY_REQUESTS_PER_USER), by outcome: ran," +
        ' timed-out (answered 503), or left (the client went away)',
      labelNames: ['outcome'],
      buckets: QUEUE_BUCKETS,
      registers: [registry],
    }),
    requestsWaiting: new Gauge({
      name: 'analytics_query_requests_waiting',
      help: "Query requests waiting for their user's turn (MAX_QUERY_REQUESTS_PER_USER)",
      registers: [registry],
    }),
    sharedRuns: new Counter({
      name: 'analytics_query_shared_total',
      help: 'Queries answered by joining an identical warehouse run in flight instead of running again, by pool (db-<id>)',
      labelNames: ['pool'],
      registers: [registry],
    }),
    pools: [
      poolGauge(
        'analytics_connection_pool_connections',
        'Open connections of each pool (app-db, db-<id>) by state',
        ['pool', 'state'],
        (s) => ({
          busy: s.numBusyConnections,
          idle: s.numIdleConnections,
        }),
      ),
      poolGauge('analytics_connection_pool_waiters', 'Requests waiting for a connection of each pool', ['pool'], (s) => ({
        '': s.numWaiting,
      })),
      poolGauge('analytics_connection_pool_max', 'Largest size of each pool', ['pool'], (s) => ({ '': s.maxPoolSize })),
      poolGauge(
        'analytics_query_queue_waiting',
        'Warehouse queries waiting for a query slot, by pool (db-<id>)',
        ['pool'],
        (s): Record<string, number> => (s.numQueuedQueries === undefined ? {} : { '': s.numQueuedQueries }),
      ),
    ],
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
