import type { Connection } from 'mysql2/promise';
import { Client } from 'pg';
import { MessageError } from '../../common/errors/api-errors';
import type { FileDetails, ServerDetails } from '../../query-engine/execute/drivers/details';
import type { Engine } from '../../query-engine/execute/drivers/driver';
import { connectMysql } from '../../query-engine/execute/drivers/mysql-options';
import { postgresClientConfig } from '../../query-engine/execute/drivers/postgres.driver';
import { questionMarksToDollars } from '../../query-engine/execute/drivers/sql-scan';
import { checkStatement } from '../../query-engine/execute/drivers/statement-policy';
import type { WriteParam, WriteStatement } from './action-sql';
import { sqliteWriteInWorker } from './sqlite-write-worker';

/** What one statement of a write did: the rows it returned (RETURNING, SELECT) and how many rows it changed. */
export interface WriteOutcome {
  rows: Record<string, unknown>[];
  changes: number;
}

/** A statement the database refused: the action's 400 with the database's own message. */
export class WriteFailedError extends MessageError {}

const STATEMENT_TIMEOUT_MS = 30_000;

/**
 * Runs an action's statements in one transaction on the warehouse, with bound parameters; any failure rolls back all
 * of them. The query drivers only read (their SQLite files open read-only, their Postgres transactions are READ
 * ONLY), so writes get their own short-lived connection here (SQLite: in a killable worker process, as the query
 * driver does; Postgres and MariaDB: with a statement timeout; MySQL/MariaDB through server-side prepared statements).
 * Each statement passes the statement policy first (one statement, no ATTACH, no file functions).
 */
export async function runWrite(
  engine: Engine,
  details: ServerDetails | FileDetails,
  statements: WriteStatement[],
): Promise<WriteOutcome[]> {
  let checked: WriteStatement[];
  try {
    checked = statements.map((s) => {
      const scanned = checkStatement(engine, s.sql, false);
      return engine === 'postgres' ? { sql: questionMarksToDollars(s.sql, scanned).sql, params: s.params } : s;
    });
  } catch (e) {
    throw new WriteFailedError((e as Error).message);
  }
  if (engine === 'sqlite') return sqliteWrite(details as FileDetails, checked);
  if (engine === 'postgres') return postgresWrite(details as ServerDetails, checked);
  if (engine === 'mysql') return mysqlWrite(details as ServerDetails, checked);
  throw new Error(`no action writer for ${engine}`);
}

async function sqliteWrite(details: FileDetails, statements: WriteStatement[]): Promise<WriteOutcome[]> {
  try {
    return await sqliteWriteInWorker(details, statements, STATEMENT_TIMEOUT_MS);
  } catch (e) {
    throw new WriteFailedError((e as Error).message);
  }
}

async function postgresWrite(details: ServerDetails, statements: WriteStatement[]): Promise<WriteOutcome[]> {
  const client = new Client(postgresClientConfig(details));
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    throw new WriteFailedError((e as Error).message);
  }
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL statement_timeout = ${STATEMENT_TIMEOUT_MS}`);
    const out: WriteOutcome[] = [];
    for (const s of statements) {
      const r = await client.query({ text: s.sql, values: s.params as WriteParam[] });
      out.push({ rows: r.rows as Record<string, unknown>[], changes: r.rowCount ?? 0 });
    }
    await client.query('COMMIT');
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new WriteFailedError((e as Error).message);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function mysqlWrite(details: ServerDetails, statements: WriteStatement[]): Promise<WriteOutcome[]> {
  let conn: Connection;
  try {
    conn = await connectMysql(details);
  } catch (e) {
    throw new WriteFailedError((e as Error).message);
  }
  conn.on('error', () => undefined);
  try {
    // MariaDB's limit for any statement (MySQL's max_execution_time covers SELECTs only).
    await conn.query(`SET SESSION max_statement_time = ${STATEMENT_TIMEOUT_MS / 1000}`).catch(() => undefined);
    await conn.query('START TRANSACTION');
    const out: WriteOutcome[] = [];
    for (const s of statements) {
      const [result] = await conn.execute(s.sql, s.params);
      out.push(
        Array.isArray(result)
          ? { rows: result as Record<string, unknown>[], changes: result.length }
          : { rows: [], changes: (result as { affectedRows?: number }).affectedRows ?? 0 },
      );
    }
    await conn.query('COMMIT');
    return out;
  } catch (e) {
    await conn.query('ROLLBACK').catch(() => undefined);
    throw new WriteFailedError((e as Error).message);
  } finally {
    conn.destroy();
  }
}
