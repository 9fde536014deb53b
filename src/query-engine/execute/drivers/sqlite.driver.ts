import Database from 'better-sqlite3';
import { baseTypeFor } from './base-types';
import type { FileDetails } from './details';
import type { BaseType, DescribedDatabase, DriverOptions, QueryOptions, QueryResult, RowStream, ResultColumn, SqlParam, WarehouseDriver } from './driver';
import { ConnectionError, WarehouseError } from './errors';
import { checkDatabaseFile } from './file-database';
import { QueryGuard } from './query-guard';
import { ResourcePool } from './resource-pool';
import { streamOfResult } from './row-stream';
import { poolSettings } from './settings';
import { describeSqlite } from './sqlite-describe';
import { SqliteExecutor, type ExecReply } from './sqlite-executor';
import { statementFailure } from './server-errors';
import { checkStatement } from './statement-policy';
import { isoFromSqlTime, isoFromSqlTimestamp, jsonValue, paramValue } from './values';

/**
 * SQLite. Statements run in killable worker processes (see sqlite-executor.ts); schema reads and the
 * connection test open the file read-only in-process, briefly. ATTACH, VACUUM (INTO) and load_extension are
 * refused by the statement policy; better-sqlite3 leaves extension loading off.
 */
export class SqliteDriver implements WarehouseDriver {
  readonly engine = 'sqlite' as const;
  private readonly pool: ResourcePool<SqliteExecutor>;

  constructor(
    private readonly details: FileDetails,
    private readonly options: DriverOptions = {},
  ) {
    this.pool = new ResourcePool<SqliteExecutor>(
      {
        create: () => {
          checkDatabaseFile(details.db, false);
          return SqliteExecutor.start(details.db, Boolean(options.writable));
        },
        destroy: (e) => e.kill(),
        isUsable: (e) => e.alive,
      },
      poolSettings(options),
    );
  }

  async testConnection(): Promise<void> {
    this.withReadHandle((db) => db.prepare('SELECT count(*) FROM sqlite_schema').get());
  }

  async describe(): Promise<DescribedDatabase> {
    return this.withReadHandle(describeSqlite);
  }

  async query(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<QueryResult> {
    checkStatement('sqlite', sql, Boolean(opts.readOnly));
    const executor = await this.pool.acquire(opts.signal);
    const guard = new QueryGuard(opts, { cancel: () => executor.kill() }, opts.timeoutMs ?? null);
    try {
      const reply = await guard.run(() =>
        executor.run({
          sql,
          params: params.map(sqliteParam),
          readOnly: Boolean(opts.readOnly),
          maxRows: opts.maxRows && opts.maxRows > 0 ? opts.maxRows : undefined,
        }),
      );
      return toResult(reply);
    } catch (e) {
      throw statementFailure(e);
    } finally {
      if (executor.alive && !guard.interrupted) this.pool.release(executor);
      else this.pool.discard(executor);
    }
  }

  /** The client hands over whole results: batches of it, for the one contract. */
  stream(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<RowStream> {
    return streamOfResult(this.query(sql, params, opts));
  }

  poolInfo() {
    return this.pool.info();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private withReadHandle<T>(work: (db: Database.Database) => T): T {
    const { db: file } = this.details;
    checkDatabaseFile(file, false);
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
      return work(db);
    } catch (e) {
      if (e instanceof WarehouseError) throw e;
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_NOTADB') throw new ConnectionError(`File ${file} is not a SQLite database.`);
      if (code === 'SQLITE_CANTOPEN') throw new ConnectionError(`Could not open ${file}.`);
      throw statementFailure(e);
    } finally {
      db?.close();
    }
  }
}

/** better-sqlite3 binds no booleans: SQLite stores them as 1 and 0. */
function sqliteParam(p: SqlParam): string | number | bigint | null {
  const v = paramValue(p);
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

function toResult(reply: ExecReply): QueryResult {
  const columns: ResultColumn[] = reply.columns.map((c, i) => {
    const databaseType = c.type ?? inferredType(reply.rows, i);
    return { name: c.name, databaseType, baseType: baseTypeFor('sqlite', databaseType) };
  });
  const convert = columns.map((c) => converter(c.baseType));
  return { columns, rows: reply.rows.map((row) => row.map((v, i) => convert[i](v))) };
}

/** SQLite values carry a storage class, not a type: an expression column is typed by its first value. */
function inferredType(rows: unknown[][], column: number): string {
  const v = rows.find((r) => r[column] !== null && r[column] !== undefined)?.[column];
  if (typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v))) return 'INTEGER';
  if (typeof v === 'number') return 'REAL';
  if (typeof v === 'string') return 'TEXT';
  if (v instanceof Uint8Array) return 'BLOB';
  return '';
}

function converter(baseType: BaseType): (v: unknown) => unknown {
  switch (baseType) {
    case 'type/Boolean':
      return (v) => (typeof v === 'bigint' || typeof v === 'number' ? Number(v) !== 0 : jsonValue(v));
    case 'type/DateTime':
      return (v) => (typeof v === 'string' ? isoFromSqlTimestamp(v, false) : jsonValue(v));
    case 'type/Time':
      return (v) => (typeof v === 'string' ? isoFromSqlTime(v) : jsonValue(v));
    default:
      return jsonValue;
  }
}
