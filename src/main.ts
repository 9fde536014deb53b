import { ConfigError, loadConfig } from './config/app-config';
import { createApp } from './app.factory';
import { AppLogger } from './common/logging/app-logger';

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
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  await app.listen(config.port, config.host);
  const { port } = server.address() as import('node:net').AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  shutdownOn(['SIGTERM', 'SIGINT'], async () => {
    logger.info('Shutting down: finishing in-flight requests');
    await drainHttp(server);
    await app.close(); // shutdown hooks: warehouse pools, the app database
    logger.flush();
  });
  logger.info('Server started', { url: `http://${host}:${port}`, app_db: config.databaseUrl ? 'postgres' : config.sqlitePath });
  logger.flush();
}

/**
 * Stops accepting connections and resolves once the requests in flight have been answered. Keep-alive
 * connections are closed as soon as they are idle (a load balancer's would otherwise hold the process until
 * their timeout); Nest's own close() would run the shutdown hooks, closing the pools and the app database,
 * while those requests still need them.
 */
function drainHttp(server: import('node:http').Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Graceful stop on the first signal; a second one, or 25 s without finishing, forces the exit. */
function shutdownOn(signals: NodeJS.Signals[], close: () => Promise<void>): void {
  let stopping = false;
  const handler = () => {
    if (stopping) process.exit(1);
    stopping = true;
    setTimeout(() => process.exit(1), 25_000).unref();
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
