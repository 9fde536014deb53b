import type { Connection } from 'mysql2/promise';
import { Client } from 'pg';
import type { FileDetails, ServerDetails } from '../../query-engine/execute/drivers/details';
import { connectMysql } from '../../query-engine/execute/drivers/mysql-options';
import { postgresClientConfig } from '../../query-engine/execute/drivers/postgres.driver';
import type { PersistEngine } from './persisted-ddl';

export type WriteValue = string | number | boolean | null;

/**
 * A writable connection to a warehouse, for building persisted tables. The query drivers only read (read-only
 * transactions, read-only files), so the builder gets its own connection: Postgres and MySQL/MariaDB a plain client,
 * DuckDB a read-write instance (see duckdb-writer.ts). Statements use `?` placeholders everywhere.
 */
export interface WarehouseWriter {
  run(sql: string, params?: readonly WriteValue[]): Promise<void>;
  /** The statements in one transaction (on MySQL, whose DDL commits by itself, they simply run in order). */
  transaction(statements: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/** A database refused a statement: its code (SQLSTATE, or MySQL's errno) for telling a missing right apart. */
export class WarehouseWriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'WarehouseWriteError';
  }
}

export type WriterFactory = (engine: PersistEngine, details: ServerDetails | FileDetails) => Promise<WarehouseWriter>;

function wrap(e: unknown): WarehouseWriteError {
  const err = e as { message?: string; code?: string | number; errno?: number };
  return new WarehouseWriteError(
    err.message ?? String(e),
    err.code !== undefined ? String(err.code) : err.errno !== undefined ? String(err.errno) : undefined,
  );
}

/** `?` to `$n` (our SQL here is generated: no `?` inside literals or quoted names other than the placeholders). */
function dollars(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

export async function postgresWriter(details: ServerDetails): Promise<WarehouseWriter> {
  const client = new Client(postgresClientConfig(details));
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    throw wrap(e);
  }
  const run = async (sql: string, params: readonly WriteValue[] = []) => {
    try {
      await client.query({ text: dollars(sql), values: params as WriteValue[] });
    } catch (e) {
      throw wrap(e);
    }
  };
  return {
    run,
    transaction: async (statements) => {
      await run('BEGIN');
      try {
        for (const s of statements) await run(s);
        await run('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    },
    close: async () => void (await client.end().catch(() => undefined)),
  };
}

export async function mysqlWriter(details: ServerDetails): Promise<WarehouseWriter> {
  let conn: Connection;
  try {
    conn = await connectMysql(details);
  } catch (e) {
    throw wrap(e);
  }
  conn.on('error', () => undefined);
  const run = async (sql: string, params: readonly WriteValue[] = []) => {
    try {
      if (params.length) await conn.execute(sql, params as WriteValue[]);
      else await conn.query(sql);
    } catch (e) {
      throw wrap(e);
    }
  };
  return {
    run,
    transaction: async (statements) => {
      for (const s of statements) await run(s);
    },
    // Prepared statements of the batches go with the connection.
    close: async () => conn.destroy(),
  };
}
