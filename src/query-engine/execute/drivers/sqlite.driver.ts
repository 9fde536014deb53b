import Database from 'better-sqlite3';
import { baseTypeFor } from './base-types';
import type { FileDetails } from './details';
import type {
  BaseType,
  DescribedDatabase,
  DriverOptions,
  QueryOptions,
  QueryResult,
  RowStream,
  ResultColumn,
  SqlParam,
  WarehouseDriver,
} from './driver';
import { ConnectionError, WarehouseError } from './errors';
import { checkDatabaseFile } from './file-database';
import { QueryGuard } from './query-guard';
import { ResourcePool } from './resource-pool';
import { rowStream, STREAM_BATCH_ROWS } from './row-stream';
import { poolSettings } from './settings';
import { describeSqlite } from './sqlite-describe';
import { SqliteExecutor, type ExecBatch, type ExecReply, type ExecRequest } from './sqlite-executor';
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
    const guard = this.guard(executor, opts);
    try {
      const reply = await guard.run(() => executor.run(execRequest(sql, params, opts)));
      const columns = resultColumns(reply);
      return { columns, rows: convertRows(columns, reply.rows) };
    } catch (e) {
      throw statementFailure(e);
    } finally {
      this.giveBack(executor, guard);
    }
  }

  /**
   * The worker reads a batch only when asked; the next one is asked for as the current one is handed over, so
   * it is read while the consumer writes. Expression columns are typed by the first batch (query(): all rows).
   */
  async stream(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<RowStream> {
    checkStatement('sqlite', sql, Boolean(opts.readOnly));
    const executor = await this.pool.acquire(opts.signal);
    const guard = this.guard(executor, opts);
    // The batch asked for and not yet handed over.
    let pending: Promise<ExecBatch> | null = null;
    let closing = false;
    const finish = async () => {
      // A next() waiting for the same batch must not ask for another once the worker is being given back.
      closing = true;
      await pending?.catch(() => undefined);
      executor.stop();
      await guard.end();
      this.giveBack(executor, guard);
    };
    try {
      guard.begin();
      const opening = executor.open(execRequest(sql, params, opts), STREAM_BATCH_ROWS);
      pending = opening;
      const columns = resultColumns(await opening);
      guard.check();
      const next = async (): Promise<unknown[][] | null> => {
        if (!pending) return null;
        let batch: ExecBatch;
        try {
          batch = await pending;
          guard.check();
        } catch (e) {
          throw statementFailure(guard.translate(e));
        }
        pending = batch.done || closing ? null : executor.more();
        // Nobody may await a batch read ahead when the consumer stops early: its failure must not go unhandled.
        pending?.catch(() => undefined);
        return convertRows(columns, batch.rows);
      };
      return rowStream(columns, { next, finish });
    } catch (e) {
      await finish();
      throw statementFailure(guard.translate(e));
    }
  }

  poolInfo() {
    return this.pool.info();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private guard(executor: SqliteExecutor, opts: QueryOptions): QueryGuard {
    return new QueryGuard(opts, { cancel: () => executor.kill() }, opts.timeoutMs ?? null);
  }

  /** A killed worker goes; so does one whose statement was interrupted (it is being killed). */
  private giveBack(executor: SqliteExecutor, guard: QueryGuard): void {
    if (executor.alive && !guard.interrupted) this.pool.release(executor);
    else this.pool.discard(executor);
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
      if (code === 'SQLITE_NOTADB') throw new ConnectionError(`File ${file} is not a SQLite database.`, 'db');
      if (code === 'SQLITE_CANTOPEN') throw new ConnectionError(`Could not open ${file}.`, 'db');
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

function execRequest(sql: string, params: readonly SqlParam[], opts: QueryOptions): ExecRequest {
  return {
    sql,
    params: params.map(sqliteParam),
    readOnly: Boolean(opts.readOnly),
    maxRows: opts.maxRows && opts.maxRows > 0 ? opts.maxRows : undefined,
  };
}

function resultColumns(reply: ExecReply): ResultColumn[] {
  return reply.columns.map((c, i) => {
    const databaseType = c.type ?? inferredType(reply.rows, i);
    return { name: c.name, databaseType, baseType: baseTypeFor('sqlite', databaseType) };
  });
}

function convertRows(columns: ResultColumn[], rows: unknown[][]): unknown[][] {
  const convert = columns.map((c) => converter(c.baseType));
  return rows.map((row) => row.map((v, i) => convert[i](v)));
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
