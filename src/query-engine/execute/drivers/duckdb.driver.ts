import {
  DuckDBInstance,
  StatementType,
  type DuckDBConnection,
  type DuckDBDataChunk,
  type DuckDBPreparedStatement,
  type DuckDBResult,
  type DuckDBValue,
} from '@duckdb/node-api';
import { baseTypeFor } from './base-types';
import type { FileDetails } from './details';
import type { DescribedDatabase, DriverOptions, QueryOptions, QueryResult, RowStream, SqlParam, WarehouseDriver } from './driver';
import { DUCKDB_LOCKED_CONFIG } from './duckdb-config';
import { chunkRows, columnReaders } from './duckdb-columns';
import { describeDuckdb } from './duckdb-describe';
import { ConnectionError, QueryError, StatementRejectedError, WarehouseError } from './errors';
import { checkDatabaseFile } from './file-database';
import { QueryGuard } from './query-guard';
import { ResourcePool } from './resource-pool';
import { collectRows, rowStream } from './row-stream';
import { poolSettings } from './settings';
import { checkStatement } from './statement-policy';
import { paramValue } from './values';

/** Prepared statements kept per connection; the least recently used goes first. */
export const KEPT_STATEMENTS = 32;

const NEVER_ALLOWED = new Set<StatementType>([
  StatementType.ATTACH,
  StatementType.DETACH,
  StatementType.LOAD,
  StatementType.EXTENSION,
  StatementType.COPY,
  StatementType.EXPORT,
  StatementType.COPY_DATABASE,
  StatementType.UPDATE_EXTENSIONS,
]);

/**
 * One DuckDB instance per database, several connections on it. The file is opened READ_ONLY unless the server
 * asks for `writable` (the sample writer, tests): read-only also lets several processes share the file.
 * Cancellation and timeouts interrupt the connection, which stays usable.
 */
export class DuckDbDriver implements WarehouseDriver {
  readonly engine = 'duckdb' as const;
  private instance: Promise<DuckDBInstance> | null = null;
  private readonly pool: ResourcePool<DuckDBConnection>;
  /** Per connection, its prepared statements by SQL text, least recently used first. */
  private readonly statements = new WeakMap<DuckDBConnection, Map<string, DuckDBPreparedStatement>>();

  constructor(
    private readonly details: FileDetails,
    private readonly options: DriverOptions = {},
  ) {
    this.pool = new ResourcePool<DuckDBConnection>(
      {
        create: async () => (await this.open()).connect(),
        destroy: (c) => {
          this.statements.get(c)?.forEach((statement) => statement.destroySync());
          c.closeSync();
        },
      },
      poolSettings(options),
    );
  }

  async testConnection(): Promise<void> {
    const conn = await this.pool.acquire();
    try {
      await conn.run('SELECT 1');
    } finally {
      this.pool.release(conn);
    }
  }

  async describe(): Promise<DescribedDatabase> {
    const conn = await this.pool.acquire();
    try {
      return await describeDuckdb(conn);
    } catch (e) {
      throw duckFailure(e);
    } finally {
      this.pool.release(conn);
    }
  }

  /** The streaming path is also the fastest way to read everything: one code path for both. */
  async query(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<QueryResult> {
    return collectRows(await this.stream(sql, params, opts));
  }

  async stream(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<RowStream> {
    checkStatement('duckdb', sql, Boolean(opts.readOnly));
    const conn = await this.pool.acquire(opts.signal);
    const guard = new QueryGuard(opts, { cancel: () => conn.interrupt() }, opts.timeoutMs ?? null);
    let prepared: DuckDBPreparedStatement | null = null;
    let reader: BatchReader | null = null;
    const finish = async () => {
      // A chunk still being fetched belongs to this connection: wait for it before anyone else gets it.
      await reader?.settle();
      // Only a statement whose run went to its end cleanly is kept for the next run of the same SQL.
      if (prepared && reader?.exhausted() && !guard.interrupted) this.keep(conn, sql, prepared);
      else prepared?.destroySync();
      await guard.end();
      this.pool.release(conn);
    };
    try {
      guard.begin();
      prepared = await this.prepare(conn, sql, params, Boolean(opts.readOnly));
      const result = await prepared.stream();
      guard.check();
      reader = this.batchReader(result, opts.maxRows && opts.maxRows > 0 ? opts.maxRows : Infinity, guard);
      return rowStream(resultColumns(result), { next: reader.next, finish });
    } catch (e) {
      await finish();
      throw duckFailure(guard.translate(e));
    }
  }

  poolInfo() {
    return this.pool.info();
  }

  async close(): Promise<void> {
    await this.pool.close();
    const instance = this.instance;
    this.instance = null;
    if (instance) (await instance.catch(() => null))?.closeSync();
  }

  /**
   * The connection's statement for this SQL, prepared now or kept from an earlier run (preparing cost a third
   * of a small query), with the parameters bound. A kept statement is taken out while it runs.
   */
  private async prepare(
    conn: DuckDBConnection,
    sql: string,
    params: readonly SqlParam[],
    readOnly: boolean,
  ): Promise<DuckDBPreparedStatement> {
    const kept = this.statements.get(conn)?.get(sql);
    if (kept) this.statements.get(conn)!.delete(sql);
    const prepared = kept ?? (await this.prepareNew(conn, sql));
    try {
      this.checkStatementType(prepared.statementType, readOnly);
      prepared.clearBindings();
      if (params.length) prepared.bind(params.map((p) => paramValue(p) as DuckDBValue));
      return prepared;
    } catch (e) {
      prepared.destroySync();
      throw e;
    }
  }

  private async prepareNew(conn: DuckDBConnection, sql: string): Promise<DuckDBPreparedStatement> {
    // DuckDB's own parser has the last word on how many statements there are.
    const extracted = await conn.extractStatements(sql);
    if (extracted.count !== 1) throw new StatementRejectedError('Only one SQL statement is allowed per query.', 'multiple-statements');
    return extracted.prepare(0);
  }

  private keep(conn: DuckDBConnection, sql: string, prepared: DuckDBPreparedStatement): void {
    let kept = this.statements.get(conn);
    if (!kept) this.statements.set(conn, (kept = new Map()));
    kept.set(sql, prepared);
    if (kept.size > KEPT_STATEMENTS) {
      const [oldestSql, oldest] = kept.entries().next().value as [string, DuckDBPreparedStatement];
      kept.delete(oldestSql);
      oldest.destroySync();
    }
  }

  /**
   * Reads chunk after chunk, asking for the next one before converting the current one: DuckDB produces it on
   * its own threads while this one converts.
   */
  private batchReader(result: DuckDBResult, max: number, guard: QueryGuard): BatchReader {
    const readers = columnReaders(result.columnTypes());
    let count = 0;
    let exhausted = false;
    let ahead: Promise<DuckDBDataChunk | null> | null = result.fetchChunk();
    // Nobody may be waiting for it when the reader stops early; its failure must not go unhandled.
    ahead.catch(() => undefined);
    const next = async () => {
      if (!ahead || count >= max) return null;
      let chunk: DuckDBDataChunk | null;
      try {
        chunk = await ahead;
        guard.check();
      } catch (e) {
        throw duckFailure(guard.translate(e));
      }
      if (!chunk || chunk.rowCount === 0) {
        exhausted = true;
        return (ahead = null);
      }
      const take = Math.min(chunk.rowCount, max - count);
      count += take;
      ahead = count < max ? result.fetchChunk() : null;
      ahead?.catch(() => undefined);
      return chunkRows(chunk, take, readers);
    };
    return { next, settle: async () => void (await ahead?.catch(() => undefined)), exhausted: () => exhausted };
  }

  private checkStatementType(type: StatementType, readOnly: boolean): void {
    if (NEVER_ALLOWED.has(type)) {
      throw new StatementRejectedError(
        'This statement is not allowed: it would reach files or extensions outside the database.',
        'statement-not-allowed',
      );
    }
    if (readOnly && type !== StatementType.SELECT && !(type === StatementType.EXPLAIN && !this.options.writable)) {
      throw new StatementRejectedError('Only statements that read data are allowed here.', 'read-only');
    }
  }

  private open(): Promise<DuckDBInstance> {
    this.instance ??= this.createInstance().catch((e) => {
      this.instance = null;
      throw e;
    });
    return this.instance;
  }

  private async createInstance(): Promise<DuckDBInstance> {
    const { db } = this.details;
    checkDatabaseFile(db, Boolean(this.options.writable));
    try {
      const { memoryLimit, threads } = this.options;
      return await DuckDBInstance.create(db, {
        ...DUCKDB_LOCKED_CONFIG,
        access_mode: this.options.writable ? 'READ_WRITE' : 'READ_ONLY',
        ...(memoryLimit ? { memory_limit: memoryLimit } : {}),
        ...(threads ? { threads: String(threads) } : {}),
      });
    } catch (e) {
      const message = (e as Error).message ?? String(e);
      if (/not a valid DuckDB database/i.test(message)) throw new ConnectionError(`File ${db} is not a DuckDB database.`, 'db');
      if (/lock/i.test(message)) throw new ConnectionError(`File ${db} is locked by another process.`);
      if (/does not exist/i.test(message)) throw new ConnectionError(`File ${db} does not exist.`, 'db');
      throw new ConnectionError(`Could not open ${db}: ${message.split('\n')[0]}`);
    }
  }
}

interface BatchReader {
  next(): Promise<unknown[][] | null>;
  settle(): Promise<void>;
  /** True once DuckDB said there are no more rows (not when the reader stopped at its row cap). */
  exhausted(): boolean;
}

function resultColumns(result: DuckDBResult) {
  const types = result.columnTypes();
  return result.columnNames().map((name, i) => {
    // JSON is VARCHAR with an alias; the alias is the name users know.
    const databaseType = result.columnLogicalType(i).alias ?? types[i].toString();
    return { name, databaseType, baseType: baseTypeFor('duckdb', databaseType) };
  });
}

function duckFailure(e: unknown): WarehouseError {
  if (e instanceof WarehouseError) return e;
  const message = (e as Error)?.message ?? String(e);
  const kind = /^([A-Za-z ]+) Error:/.exec(message)?.[1];
  return new QueryError(message.trim(), kind);
}
