import { EventEmitter } from 'node:events';
import type { Request, Response } from 'express';
import { Registry } from 'prom-client';
import type { ConnectionPoolRegistry } from '../../common/database/connection-pools';
import type { AppLogger } from '../../common/logging/app-logger';
import type { AppConfig } from '../../config/app-config';
import { MetricsService, routePattern } from './metrics.service';

/** MetricsService: off measures nothing and listens nowhere; on, what each report records and what the port serves. */
describe('MetricsService', () => {
  const pools = {
    snapshot: () => ({ 'app-db': { numBusyConnections: 1, numIdleConnections: 2, numWaiting: 0, maxPoolSize: 10 } }),
  } as unknown as ConnectionPoolRegistry;
  const started: MetricsService[] = [];

  function setup(metricsPort: number | undefined) {
    const logger = { info: jest.fn(), error: jest.fn() };
    const config = { metricsPort, host: '127.0.0.1' } as unknown as AppConfig;
    const service = new MetricsService(config, pools, logger as unknown as AppLogger);
    started.push(service);
    return { service, logger };
  }

  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all(started.splice(0).map((s) => s.onApplicationShutdown()));
  });

  /** The sample lines of one metric family in a scrape. */
  const lines = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(name));

  it('is off without METRICS_PORT: no timer, an empty scrape, no port, nothing listening', async () => {
    const { service } = setup(undefined);
    expect(service.enabled).toBe(false);
    expect(service.requestTimer()).toBeUndefined();
    // Reports are accepted and dropped.
    service.queryRan('h2', 'completed', 10);
    service.cacheLookup(true);
    await expect(service.scrape()).resolves.toBe('');
    await service.onApplicationBootstrap();
    expect(service.port()).toBeNull();
  });

  it('records each report under its labels, in seconds', async () => {
    const { service } = setup(0);
    expect(service.enabled).toBe(true);
    service.queryRan('postgres', 'completed', 1500);
    service.queryRan(undefined, 'failed', 250);
    service.queryQueued('db-1', 'timed-out', 30000);
    service.queryShared('db-1');
    service.cacheLookup(true);
    service.cacheLookup(false);
    service.cacheLookup(false);
    service.syncRan('schema', 'succeeded', 2000);
    const text = await service.scrape();
    expect(lines(text, 'analytics_query_duration_seconds_sum')).toEqual([
      'analytics_query_duration_seconds_sum{engine="postgres",outcome="completed"} 1.5',
      'analytics_query_duration_seconds_sum{engine="unknown",outcome="failed"} 0.25',
    ]);
    expect(lines(text, 'analytics_query_queue_wait_seconds_sum')).toEqual([
      'analytics_query_queue_wait_seconds_sum{pool="db-1",outcome="timed-out"} 30',
    ]);
    expect(lines(text, 'analytics_query_shared_total')).toEqual(['analytics_query_shared_total{pool="db-1"} 1']);
    expect(lines(text, 'analytics_query_cache_lookups_total')).toEqual([
      'analytics_query_cache_lookups_total{result="hit"} 1',
      'analytics_query_cache_lookups_total{result="miss"} 2',
    ]);
    expect(lines(text, 'analytics_sync_run_duration_seconds_sum')).toEqual([
      'analytics_sync_run_duration_seconds_sum{kind="schema",outcome="succeeded"} 2',
    ]);
    // Pools are read at scrape time.
    expect(lines(text, 'analytics_connection_pool_connections')).toEqual([
      'analytics_connection_pool_connections{pool="app-db",state="busy"} 1',
      'analytics_connection_pool_connections{pool="app-db",state="idle"} 2',
    ]);
  });

  it('times a request once it finished, under its route pattern', async () => {
    const { service } = setup(0);
    const timer = service.requestTimer()!;
    const res = Object.assign(new EventEmitter(), { statusCode: 404 }) as unknown as Response;
    const req = { method: 'GET', baseUrl: '/api/card', route: { path: '/:id' }, originalUrl: '/api/card/12' } as unknown as Request;
    const next = jest.fn();
    timer(req, res, next);
    expect(next).toHaveBeenCalledTimes(1);
    expect(lines(await service.scrape(), 'analytics_http_request_duration_seconds_count')).toEqual([]);
    (res as unknown as EventEmitter).emit('finish');
    expect(lines(await service.scrape(), 'analytics_http_request_duration_seconds_count')).toEqual([
      'analytics_http_request_duration_seconds_count{method="GET",route="/api/card/:id",status="404"} 1',
    ]);
  });

  it('names the route pattern, never the raw path', () => {
    const req = (r: Record<string, unknown>) => r as unknown as Request;
    expect(routePattern(req({ baseUrl: '/api/card', route: { path: '/:id' }, url: '/12' }))).toBe('/api/card/:id');
    expect(routePattern(req({ baseUrl: '', route: { path: '/api/session' } }))).toBe('/api/session');
    expect(routePattern(req({ baseUrl: '', route: { path: '' } }))).toBe('/');
    expect(routePattern(req({ url: '/api/public/card/2f6c-secret-uuid' }))).toBe('unmatched');
    expect(routePattern(req({ route: { path: /regex/ } }))).toBe('unmatched');
  });

  it('serves the scrape on its own port at GET /metrics only, and stops listening at shutdown', async () => {
    const { service, logger } = setup(0);
    await service.onApplicationBootstrap();
    const port = service.port();
    expect(port).toBeGreaterThan(0);
    expect(logger.info).toHaveBeenCalledWith('Metrics served', { url: `http://127.0.0.1:${port}/metrics` });
    const ok = await fetch(`http://127.0.0.1:${port}/metrics?x=1`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
    expect(await ok.text()).toContain('analytics_connection_pool_max{pool="app-db"} 10');
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: 'POST' })).status).toBe(404);

    await service.onApplicationShutdown();
    expect(service.port()).toBeNull();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });

  it('answers 500 and logs when a scrape fails', async () => {
    const { service, logger } = setup(0);
    await service.onApplicationBootstrap();
    const failure = new Error('collect failed');
    jest.spyOn(Registry.prototype, 'metrics').mockRejectedValueOnce(failure);
    expect((await fetch(`http://127.0.0.1:${service.port()}/metrics`)).status).toBe(500);
    expect(logger.error).toHaveBeenCalledWith('Metrics: scrape failed', { err: failure });
  });
});
