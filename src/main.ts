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
  const logger = new AppLogger(config.logLevel, config.logTarget);
  if (!config.encryptionKey) {
    logger.warning('ENCRYPTION_KEY is not set: secrets in the app database are stored unencrypted');
  }
  const app = await createApp(config, logger);
  // Finish in-flight requests on SIGTERM before closing pools (enableShutdownHooks runs app.close()).
  const server = app.getHttpServer() as import('node:http').Server;
  server.keepAliveTimeout = 65_000; // longer than common load-balancer idle timeouts
  await app.listen(config.port, config.host);
  logger.info('Server started', { url: `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`, app_db: config.databaseUrl ? 'postgres' : config.sqlitePath });
}

main().catch((e: unknown) => {
  process.stderr.write(`Failed to start: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
