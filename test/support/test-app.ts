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

/** The whole server on a fresh app database. `env` adds or overrides environment variables. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const db = await freshAppDb();
  const config = loadConfig({ LOG_TARGET: 'memory', LOG_LEVEL: 'info', LOAD_SAMPLE_DATABASE: 'false', ...db.env, ...env });
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
