import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Which app database this jest project runs on (set by jest.config.js per project). */
export const APP_DB = (process.env.TEST_APP_DB ?? 'sqlite') as 'sqlite' | 'postgres';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDb {
  env: Record<string, string>;
  dataDir: string;
  drop(): Promise<void>;
}

/** A fresh, empty app database for one test file: a temp SQLite file, or a new Postgres database. */
export async function freshAppDb(): Promise<TestDb> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-test-'));
  const cleanupDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  if (APP_DB === 'sqlite') {
    return { env: { DATA_DIR: dataDir }, dataDir, drop: async () => cleanupDir() };
  }
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    drop: async () => {
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      cleanupDir();
    },
  };
}

async function withAdmin<T>(work: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}
