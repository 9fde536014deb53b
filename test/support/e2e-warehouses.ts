import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { createDriver, validateDetails, type Engine } from '../../src/query-engine/execute/drivers';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { freshWarehouse, serverAdmin } from './warehouses';

/**
 * Warehouses for the e2e tests, connected through POST /api/database. SQLite and DuckDB files live under the test
 * app's DATA_DIR (the only place the server accepts them); Postgres and MariaDB get a fresh database per call,
 * dropped again by `drop()`. Use availableEngines() from warehouses.ts to decide which engines to run.
 */
export interface E2eWarehouse {
  engine: Engine;
  /** What to send as `details` in POST /api/database. */
  details: Record<string, unknown>;
  /** The password in `details`, if any. */
  password?: string;
  /** SQLite/DuckDB: the file. */
  file?: string;
  /** Runs statements on the warehouse with a writable connection, closed again afterwards. */
  exec(statements: readonly string[]): Promise<void>;
  drop(): Promise<void>;
}

export interface E2eWarehouseOptions {
  /** Statements run (writable) before the warehouse is handed out. */
  statements?: readonly string[];
  /**
   * Server engines: connect as a new user with this password instead of the admin user of the test server.
   * On MariaDB the password is then really checked; Postgres test servers usually trust local connections.
   */
  password?: string;
}

const rand = () => randomBytes(4).toString('hex');

export async function e2eWarehouse(engine: Engine, dataDir: string, opts: E2eWarehouseOptions = {}): Promise<E2eWarehouse> {
  if (engine === 'sqlite' || engine === 'duckdb') return fileWarehouse(engine, dataDir, opts);
  return serverWarehouse(engine, opts);
}

async function fileWarehouse(engine: 'sqlite' | 'duckdb', dataDir: string, opts: E2eWarehouseOptions): Promise<E2eWarehouse> {
  const dir = path.join(dataDir, 'warehouses');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(fs.realpathSync(dir), `${engine}-${rand()}.${engine === 'sqlite' ? 'db' : 'duckdb'}`);
  if (engine === 'sqlite') new Database(file).close();
  const valid = validateDetails(engine, { db: file }, { dataDir });
  const exec = async (statements: readonly string[]) => {
    const driver = createDriver(engine, valid, { writable: true, maxPoolSize: 1 });
    try {
      for (const sql of statements) await driver.query(sql);
    } finally {
      await driver.close();
    }
  };
  // DuckDB creates the file on first writable open.
  await exec(opts.statements ?? (engine === 'duckdb' ? ['CREATE TABLE IF NOT EXISTS __init (x INTEGER)', 'DROP TABLE __init'] : []));
  return { engine, details: { db: file }, file, exec, drop: async () => fs.rmSync(file, { force: true }) };
}

async function serverWarehouse(engine: 'postgres' | 'mysql', opts: E2eWarehouseOptions): Promise<E2eWarehouse> {
  const wh = await freshWarehouse(engine);
  const admin = wh.details as ServerDetails;
  const exec = async (statements: readonly string[]) => {
    const driver = wh.driver({ writable: true, maxPoolSize: 1 });
    try {
      for (const sql of statements) await driver.query(sql);
    } finally {
      await driver.close();
    }
  };
  if (opts.statements) await exec(opts.statements);
  const details: Record<string, unknown> = { host: admin.host, port: admin.port, dbname: admin.dbname, user: admin.user };
  if (admin.password) details.password = admin.password;
  let dropUser = async () => undefined as unknown;
  if (opts.password !== undefined) {
    const user = `u_${rand()}`;
    const run = serverAdmin(engine);
    if (engine === 'mysql') {
      await run(`CREATE USER '${user}'@'%' IDENTIFIED BY '${opts.password.replace(/'/g, "''")}'`);
      await run(`GRANT ALL PRIVILEGES ON \`${admin.dbname}\`.* TO '${user}'@'%'`);
      dropUser = () => run(`DROP USER IF EXISTS '${user}'@'%'`);
    } else {
      await run(`CREATE ROLE ${user} LOGIN PASSWORD '${opts.password.replace(/'/g, "''")}'`);
      await run(`GRANT ALL PRIVILEGES ON DATABASE ${admin.dbname} TO ${user}`);
      // Tables made by the admin before: readable by the new role.
      await exec(['GRANT USAGE ON SCHEMA public TO ' + user, 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO ' + user]);
      dropUser = async () => {
        await run(`DROP OWNED BY ${user} CASCADE`).catch(() => undefined);
        await run(`DROP ROLE IF EXISTS ${user}`);
      };
    }
    Object.assign(details, { user, password: opts.password });
  }
  return {
    engine,
    details,
    password: details.password as string | undefined,
    exec,
    drop: async () => {
      await wh.drop();
      await dropUser();
    },
  };
}
