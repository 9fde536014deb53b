import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app.factory';
import { applyKeepAlive } from './common/http/keep-alive';
import { copyListener, LISTENER_COPIES } from './common/http/listener-copies';
import { shutdownState } from './common/http/shutdown-state';
import { AppLogger } from './common/logging/app-logger';
import { startMallocTrim } from './common/memory/malloc-trim';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const logger = new AppLogger(config.logLevel, config.logTarget, config.logFormat);
  // Log lines are written in batches: whatever ends the process (a forced exit, a crash) writes out the last ones.
  process.on('exit', () => logger.flush());
  if (!config.encryptionKey) {
    logger.warning('ENCRYPTION_KEY is not set: secrets in the app database are stored unencrypted');
  }
  const app = await createApp(config, logger);
  const server = app.getHttpServer() as import('node:http').Server;
  applyKeepAlive(server, config.keepAliveTimeoutSeconds);
  // A burst of connections waits in the kernel's queue instead of being dropped. Nest hands its arguments on to
  // Node's listen(port, host, backlog), which its typings do not list.
  const listen = app.listen.bind(app) as unknown as (port: number, host: string, backlog: number) => Promise<unknown>;
  await listen(config.port, config.host, config.listenBacklog);
  const copies = copyListener(server, LISTENER_COPIES, config.listenBacklog);
  void copies.done.then((ok) => {
    if (!ok) logger.warning('The listener could not be copied: one new connection is accepted per turn of the event loop');
  });
  const stopTrim = startMallocTrim(config.mallocTrimSeconds, logger);
  const { port } = server.address() as import('node:net').AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const drainMs = config.shutdownDrainSeconds * 1000;
  const delayMs = config.shutdownDelaySeconds * 1000;
  shutdownOn(['SIGTERM', 'SIGINT'], delayMs + drainMs + CLOSE_TIMEOUT_MS + 5_000, async () => {
    shutdownState.draining = true;
    if (delayMs > 0) {
      logger.info('Shutting down: health checks fail from now; still serving until the load balancer stops sending', {
        delay_s: config.shutdownDelaySeconds,
      });
      await new Promise((r) => setTimeout(r, delayMs));
    }
    logger.info('Shutting down: finishing in-flight requests', { drain_timeout_s: config.shutdownDrainSeconds });
    copies.stop();
    stopTrim();
    const cut = await drainHttp(server, copies.servers, drainMs);
    if (cut > 0) logger.warning('Shutting down: cut connections whose requests did not finish in time', { connections: cut });
    // Shutdown hooks: warehouse pools, the cluster bus, the app database. A pool waiting for a client that a cut
    // download left busy must not hold the exit.
    const closed = await bounded(
      app.close().then(() => true),
      CLOSE_TIMEOUT_MS,
      false,
    );
    if (!closed) logger.warning('Shutting down: closing pools took too long; exiting anyway', { timeout_ms: CLOSE_TIMEOUT_MS });
    logger.info('Stopped');
    logger.flush();
  });
  logger.info('Server started', { url: `http://${host}:${port}`, app_db: config.databaseUrl ? 'postgres' : config.sqlitePath });
  logger.flush();
}

/** How long the shutdown hooks (pools, app database) get once the HTTP side is drained. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Stops accepting connections (on the server's listener and its copies) and resolves once the requests in flight have
 * been answered. Keep-alive connections are closed as soon as they are idle (a load balancer's would otherwise hold
 * the process until their timeout); Nest's own close() would run the shutdown hooks, closing the pools and the app
 * database, while those requests still need them. After `timeoutMs` the remaining connections are destroyed: a
 * download whose client stopped reading would otherwise hold the process (and its warehouse connection) forever.
 * Answers how many connections were cut.
 */
function drainHttp(server: import('node:http').Server, copies: import('node:net').Server[], timeoutMs: number): Promise<number> {
  const listeners = [server, ...copies];
  return new Promise((resolve) => {
    let cut = 0;
    let open = listeners.length;
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      cut = listeners.reduce((n, l) => n + countOpen(l), 0);
      server.closeAllConnections();
    }, timeoutMs);
    // Each listener's close callback waits for the connections it accepted (those of a copy are the server's too).
    for (const listener of listeners)
      listener.close(() => {
        if (--open > 0) return;
        clearInterval(idle);
        clearTimeout(deadline);
        resolve(cut);
      });
    server.closeIdleConnections();
  });
}

function countOpen(server: import('node:net').Server): number {
  const conns = (server as unknown as { _connections?: number })._connections;
  return typeof conns === 'number' ? conns : 0;
}

function bounded<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
    work.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/** Graceful stop on the first signal; a second one, or `hardLimitMs` without finishing, forces the exit. */
function shutdownOn(signals: NodeJS.Signals[], hardLimitMs: number, close: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(1), hardLimitMs).unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  signals.forEach((s) => process.on(s, handler));
}

main().catch((e: unknown) => {
  process.stderr.write(`Failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
