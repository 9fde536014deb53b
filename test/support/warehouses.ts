import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import {
  createDriver,
  validateDetails,
  type DriverOptions,
  type Engine,
  type WarehouseDriver,
} from '../../src/query-engine/execute/drivers';
import type { FileDetails, ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { inCI } from './ci';

/**
 * Warehouses for the engine tests. SQLite and DuckDB always run (temp files). Postgres and MariaDB run when
 * reachable; otherwise their tests are left out with a message, and under CI their absence fails the file.
 */
export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

/** Checked synchronously (jest collects tests synchronously), in a child process with a short timeout. */
function probeServers(): Record<'postgres' | 'mysql', true | string> {
  const script = `
    const { Client } = require('pg');
    const mysql = require('mysql2/promise');
    const pg = (async () => { const c = new Client({ connectionString: process.argv[1], connectionTimeoutMillis: 3000 });
      try { await c.connect(); await c.query('SELECT 1'); return true; } catch (e) { return e.message || String(e); }
      finally { c.end().catch(() => {}); } })();
    const my = (async () => { let c;
      try { c = await mysql.createConnection({ uri: process.argv[2], connectTimeout: 3000 }); await c.query('SELECT 1'); return true; }
      catch (e) { return e.message || String(e); } finally { if (c) c.destroy(); } })();
    Promise.all([pg, my]).then(([postgres, mysql]) => { process.stdout.write(JSON.stringify({ postgres, mysql })); process.exit(0); });`;
  const r = spawnSync(process.execPath, ['-e', script, PG_URL, MYSQL_URL], {
    cwd: path.resolve(__dirname, '../..'),
    timeout: 15_000,
    encoding: 'utf8',
  });
  try {
    return JSON.parse(r.stdout);
  } catch {
    const why = r.error?.message ?? r.stderr ?? 'probe failed';
    return { postgres: why, mysql: why };
  }
}

let probed: Record<'postgres' | 'mysql', true | string> | undefined;

/** The engines this machine can test, in the order given. */
export function availableEngines(wanted: readonly Engine[] = ['sqlite', 'duckdb', 'postgres', 'mysql']): Engine[] {
  const servers = wanted.filter((e): e is 'postgres' | 'mysql' => e === 'postgres' || e === 'mysql');
  if (servers.length) probed ??= probeServers();
  return wanted.filter((engine) => {
    if (engine !== 'postgres' && engine !== 'mysql') return true;
    const status = probed![engine];
    if (status === true) return true;
    const url = engine === 'postgres' ? PG_URL : MYSQL_URL;
    const variable = engine === 'postgres' ? 'TEST_PG_URL' : 'TEST_MYSQL_URL';
    if (inCI) throw new Error(`${engine} at ${url} is not reachable (${status}); CI requires it.`);
    console.warn(`SKIPPED: the ${engine} engine tests, because ${url} is not reachable (${status}). Set ${variable} to run them.`);
    return false;
  });
}

export interface TestWarehouse {
  engine: Engine;
  dataDir: string;
  details: ServerDetails | FileDetails;
  driver(options?: DriverOptions): WarehouseDriver;
  drop(): Promise<void>;
}

/** A new, empty database for one test file: a temp file, or a freshly created Postgres/MariaDB database. */
export async function freshWarehouse(engine: Engine): Promise<TestWarehouse> {
  const dataDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `wh-${engine}-`)));
  const name = `wh_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const drivers: WarehouseDriver[] = [];
  const track = (d: WarehouseDriver) => (drivers.push(d), d);
  const closeAll = async () => {
    await Promise.all(drivers.map((d) => d.close().catch(() => undefined)));
  };
  if (engine === 'sqlite' || engine === 'duckdb') {
    const file = path.join(dataDir, engine === 'sqlite' ? 'test.db' : 'test.duckdb');
    if (engine === 'sqlite') new Database(file).close();
    const details = validateDetails(engine, { db: file }, { dataDir });
    return {
      engine,
      dataDir,
      details,
      driver: (options) => track(createDriver(engine, details, options)),
      drop: async () => {
        await closeAll();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const admin = serverAdmin(engine);
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(engine === 'postgres' ? PG_URL : MYSQL_URL);
  const details = validateDetails(
    engine,
    {
      host: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      dbname: name,
      user: decodeURIComponent(url.username) || 'root',
      password: url.password ? decodeURIComponent(url.password) : undefined,
    },
    { dataDir },
  );
  return {
    engine,
    dataDir,
    details,
    driver: (options) => track(createDriver(engine, details, options)),
    drop: async () => {
      await closeAll();
      await admin(engine === 'postgres' ? `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` : `DROP DATABASE IF EXISTS ${name}`);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs one statement as the admin of the test server and returns its rows as objects. */
export function serverAdmin(engine: 'postgres' | 'mysql'): (sql: string) => Promise<Record<string, unknown>[]> {
  return async (sql) => {
    if (engine === 'postgres') {
      const c = new Client({ connectionString: PG_URL });
      await c.connect();
      try {
        return (await c.query(sql)).rows;
      } finally {
        await c.end();
      }
    }
    const c = await createConnection({ uri: MYSQL_URL });
    try {
      const [rows] = await c.query(sql);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    } finally {
      c.destroy();
    }
  };
}

/** Runs the statements one by one on a writable driver. */
export async function runAll(driver: WarehouseDriver, statements: readonly string[]): Promise<void> {
  for (const sql of statements) await driver.query(sql);
}

/**
 * Statements of this warehouse's database still running on its server whose text carries the marker (split in
 * two so that this very query does not match itself; 0 for the file engines). Scoped to the database, so another test run on the same
 * server cannot be counted.
 */
export async function stillRunning(wh: TestWarehouse, marker: [string, string]): Promise<number> {
  const [a, b] = marker;
  if (wh.engine === 'postgres') {
    const db = (wh.details as ServerDetails).dbname;
    const rows = await serverAdmin('postgres')(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND datname = '${db}'` +
        ` AND query LIKE '%' || '${a}' || '${b}%'`,
    );
    return Number(rows[0].n);
  }
  if (wh.engine === 'mysql') {
    const db = (wh.details as ServerDetails).dbname;
    const rows = await serverAdmin('mysql')(
      `SELECT count(*) AS n FROM information_schema.PROCESSLIST WHERE DB = '${db}' AND INFO LIKE CONCAT('%', '${a}', '${b}%')`,
    );
    return Number(rows[0].n);
  }
  return 0;
}
