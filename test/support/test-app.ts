import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../src/app.factory';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { freshAppDb, TestDb } from './app-db';

export interface TestApp {
  app: INestApplication;
  config: AppConfig;
  db: TestDb;
  /** supertest against the running app. */
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * The whole server on a fresh app database. `env` adds or overrides environment variables. With `sameDbAs`
 * it is a second instance on another instance's app database (it then leaves dropping the DB to the first).
 */
export async function startTestApp(env: Record<string, string> = {}, sameDbAs?: TestApp): Promise<TestApp> {
  const db = sameDbAs ? { ...sameDbAs.db, drop: async () => undefined } : await freshAppDb();
  const config = loadConfig({
    LOG_TARGET: 'memory',
    LOG_LEVEL: 'info',
    LOAD_SAMPLE_DATABASE: 'false',
    SYNC_CHECK_SECONDS: '0',
    ...db.env,
    ...env,
  });
  const app = await createApp(config);
  await app.init();
  const server = app.getHttpServer();
  return {
    app,
    config,
    db,
    http: () => request(server),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
