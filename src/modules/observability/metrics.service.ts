import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ConnectionPoolRegistry } from '../../common/database/connection-pools';
import { AppLogger } from '../../common/logging/app-logger';
import { APP_CONFIG, AppConfig } from '../../config/app-config';
import type { Metrics } from './metrics.registry';

/**
 * Prometheus metrics, served on their own port (METRICS_PORT) so they never go through the load balancer or the
 * API's auth. Off by default: then nothing is measured and nothing listens. Other modules report through the
 * small methods here; this service never imports them.
 */
@Injectable()
export class MetricsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly metrics: Metrics | null;
  private server: http.Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    pools: ConnectionPoolRegistry,
    @Inject(AppLogger) private readonly logger: AppLogger,
  ) {
    this.metrics = config.metricsPort === undefined ? null : loadRegistry().createMetrics(pools);
  }

  get enabled(): boolean {
    return this.metrics !== null;
  }

  /**
   * Express middleware timing each request under its route pattern (`/api/card/:id`), known once it was routed;
   * none while metrics are off, so that requests do not pass through a no-op.
   */
  requestTimer(): ((req: Request, res: Response, next: NextFunction) => void) | undefined {
    const metrics = this.metrics;
    if (!metrics) return undefined;
    return (req: Request, res: Response, next: NextFunction) => {
      const end = metrics.httpDuration.startTimer();
      res.on('finish', () => end({ method: req.method, route: routePattern(req), status: String(res.statusCode) }));
      next();
    };
  }

  /** One query run that reached the engine (not a cache hit). */
  queryRan(engine: string | undefined, outcome: 'completed' | 'failed', ms: number): void {
    this.metrics?.queryDuration.observe({ engine: engine ?? 'unknown', outcome }, ms / 1000);
  }

  /** How a warehouse run's wait for a query slot ended, and how long it took. */
  queryQueued(pool: string, outcome: 'ran' | 'timed-out' | 'left', ms: number): void {
    this.metrics?.queueWait.observe({ pool, outcome }, ms / 1000);
  }

  /** How a query request's wait for its user's turn ended (request-admission.ts), and how long it took. */
  requestQueued(outcome: 'ran' | 'timed-out' | 'left', ms: number): void {
    this.metrics?.requestWait.observe({ outcome }, ms / 1000);
  }

  /** Query requests waiting for their user's turn now. */
  requestsWaiting(n: number): void {
    this.metrics?.requestsWaiting.set(n);
  }

  /** A query that read an identical run in flight instead of running again. */
  queryShared(pool: string): void {
    this.metrics?.sharedRuns.inc({ pool });
  }

  cacheLookup(hit: boolean): void {
    this.metrics?.cacheLookups.inc({ result: hit ? 'hit' : 'miss' });
  }

  syncRan(kind: string, outcome: 'succeeded' | 'failed', ms: number): void {
    this.metrics?.syncDuration.observe({ kind, outcome }, ms / 1000);
  }

  /** The text a scrape gets. */
  scrape(): Promise<string> {
    return this.metrics ? this.metrics.registry.metrics() : Promise.resolve('');
  }

  /** The port the metrics server listens on (METRICS_PORT=0 picks a free one); null when off. */
  port(): number | null {
    return (this.server?.address() as AddressInfo | null)?.port ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const metrics = this.metrics;
    if (!metrics) return;
    const server = http.createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found. Metrics are at /metrics.');
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
        (e: unknown) => {
          this.logger.error('Metrics: scrape failed', { err: e });
          res.writeHead(500).end();
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.config.metricsPort, this.config.host, () => resolve());
    });
    this.server = server;
    this.logger.info('Metrics served', { url: `http://${this.config.host}:${this.port()}/metrics` });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** The route pattern Express matched, or `unmatched` (a 404 or a static file): never the raw path, which can carry tokens. */
export function routePattern(req: Request): string {
  const route = (req as Request & { route?: { path?: unknown } }).route;
  return typeof route?.path === 'string' ? `${req.baseUrl ?? ''}${route.path}` || '/' : 'unmatched';
}

/** prom-client is loaded only when metrics are on: 1.5 MB of heap otherwise spent on nothing. */
function loadRegistry(): typeof import('./metrics.registry') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a constructor cannot await; loaded only when used
  return require('./metrics.registry') as typeof import('./metrics.registry');
}
