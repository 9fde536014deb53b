/**
 * The warehouse layer: one driver per engine behind one interface. Framework-free on purpose (no Nest imports):
 * the query processor, sync and the sample-data CLI all use it.
 *
 * Conventions every driver follows:
 * - Placeholders: callers always write `?`. MySQL, SQLite and DuckDB take `?` natively; the Postgres driver
 *   rewrites each `?` outside literals, comments and quoted identifiers to `$n`, and `??` to a literal `?`
 *   (the JDBC convention, needed for the jsonb `?` operators).
 * - Parameters: string | number | bigint | boolean | null (a Date is sent as its ISO-8601 UTC string).
 * - One statement per call; a trailing `;` is fine.
 * - Result values are JSON-friendly and the same on every engine: see values.ts.
 */
import type { Engine, SqlParam } from '../../types';

export { ENGINES, type Engine, type SqlParam } from '../../types';

export type BaseType =
  | 'type/Integer'
  | 'type/BigInteger'
  | 'type/Float'
  | 'type/Decimal'
  | 'type/Text'
  | 'type/Boolean'
  | 'type/Date'
  | 'type/DateTime'
  | 'type/DateTimeWithLocalTZ'
  | 'type/Time'
  | 'type/TimeWithLocalTZ'
  | 'type/JSON'
  | 'type/UUID'
  | 'type/Array'
  | 'type/*';

export interface ColumnInfo {
  name: string;
  databaseType: string;
  baseType: BaseType;
  nullable: boolean;
  /** 0-based, in the table's column order. */
  position: number;
  pk: boolean;
}

/** `schema` is null on MySQL (the connected database) and SQLite; 'public'-style names on Postgres, 'main' on DuckDB. */
export interface TableInfo {
  schema: string | null;
  name: string;
  kind: 'table' | 'view';
  columns: ColumnInfo[];
}

export interface ForeignKeyInfo {
  schema: string | null;
  table: string;
  column: string;
  targetSchema: string | null;
  targetTable: string;
  targetColumn: string;
}

export interface DescribedDatabase {
  tables: TableInfo[];
  foreignKeys: ForeignKeyInfo[];
}

export interface ResultColumn {
  name: string;
  databaseType: string;
  baseType: BaseType;
}

export interface QueryResult {
  columns: ResultColumn[];
  rows: unknown[][];
}

/**
 * A result read in batches while it is consumed: the connection stays with the stream until the batches run
 * out, throw, or close() is called. Whoever opens a stream must iterate it to the end or close() it.
 */
export interface RowStream {
  columns: ResultColumn[];
  /**
   * Converted rows, a few thousand per batch, at most `maxRows` in all. Iterate once. A batch handed out is never
   * reused or changed by the driver afterwards: a shared run (shared-runs.ts) keeps it for its other readers.
   */
  batches: AsyncIterable<unknown[][]>;
  /** Stops reading and gives the connection back; safe to call more than once and after the end. */
  close(): Promise<void>;
}

export interface QueryOptions {
  /** Aborting cancels the statement on the database and rejects with QueryCancelledError. */
  signal?: AbortSignal;
  /** Server-side statement timeout where the engine has one, plus a client-side backstop; QueryTimeoutError. */
  timeoutMs?: number;
  /** Run in a read-only transaction / on a read-only handle; only reading statements are accepted. */
  readOnly?: boolean;
  /** Fetch at most this many rows (the database stops producing more where the engine allows it). */
  maxRows?: number;
  /**
   * Connection impersonation: the statement runs under this warehouse role (Postgres: SET LOCAL ROLE in its
   * transaction; MariaDB/MySQL: SET ROLE, and SET ROLE NONE before the connection is reused), so the warehouse's own
   * grants and row security apply. A role that does not exist fails the statement.
   */
  role?: string;
}

export interface PoolInfo {
  numConnections: number;
  numIdleConnections: number;
  numBusyConnections: number;
  numWaiting: number;
  maxPoolSize: number;
}

export interface WarehouseDriver {
  readonly engine: Engine;
  /** Throws ConnectionError with a message for the user. */
  testConnection(): Promise<void>;
  describe(): Promise<DescribedDatabase>;
  query(sql: string, params?: readonly SqlParam[], opts?: QueryOptions): Promise<QueryResult>;
  /**
   * Like query(), but rows arrive in batches as the database produces them, so a large result is never held
   * whole. Resolves once the statement runs and its columns are known (errors up to then reject here; later
   * ones are thrown by the iteration). Cancellation and the timeout cover the whole iteration.
   */
  stream(sql: string, params?: readonly SqlParam[], opts?: QueryOptions): Promise<RowStream>;
  poolInfo(): PoolInfo;
  close(): Promise<void>;
}

/** Settings chosen by the server, never by the user's connection details. */
export interface DriverOptions {
  /** Default 15. */
  maxPoolSize?: number;
  /** How long a query waits for a free connection. Default 30 s. */
  acquireTimeoutMs?: number;
  /** Idle connections are closed after this long. Default 60 s. */
  idleTimeoutMs?: number;
  /** Default 10 s. */
  connectTimeoutMs?: number;
  /** SQLite/DuckDB: open the file read-write (writers, tests). Default false: the file is opened read-only. */
  writable?: boolean;
  /** DuckDB: the instance's `memory_limit` (e.g. `2GB`); one query cannot take the server's memory. Default DuckDB's own. */
  memoryLimit?: string;
  /** DuckDB: the instance's worker threads. Default DuckDB's own (all cores). */
  threads?: number;
}
