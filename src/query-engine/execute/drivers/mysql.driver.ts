import type { Connection, FieldPacket, RowDataPacket } from 'mysql2/promise';
import type { ServerDetails } from './details';
import type { DescribedDatabase, DriverOptions, QueryOptions, QueryResult, RowStream, SqlParam, WarehouseDriver } from './driver';
import { QueryError, QueryTimeoutError, StatementRejectedError } from './errors';
import { connectMysql } from './mysql-options';
import { mysqlConverter, mysqlResultColumn, type MysqlField } from './mysql-columns';
import { describeMysql } from './mysql-describe';
import { QueryGuard } from './query-guard';
import { ResourcePool } from './resource-pool';
import { rowStream } from './row-stream';
import { CommandReader, core } from './mysql-command-reader';
import { connectionFailure, statementFailure } from './server-errors';
import { poolSettings, SERVER_TIMEOUT_GRACE_MS } from './settings';
import { checkStatement } from './statement-policy';
import { paramValue } from './values';

const ER_UNSUPPORTED_PS = 1295;
/** MariaDB max_statement_time, MySQL max_execution_time. */
const TIMEOUT_ERRNOS = new Set([1969, 3024]);

/**
 * The conversion the compiler writes for the report time zone (MysqlDialect.convertTimezone): a named zone, which
 * CONVERT_TZ turns into NULL when the server has no time zone tables.
 */
export function convertsToNamedZone(sql: string): boolean {
  // `CONVERT_TZ(` then, anywhere after it, `, '+00:00', '<Zone/Name>')`: scanned, since the equivalent regular
  // expression (`CONVERT_TZ\(.*?, '\+00:00', ...`) retries from every `CONVERT_TZ(` of a user's SQL.
  const open = 'CONVERT_TZ(';
  const tail = ", '+00:00', '";
  const start = sql.indexOf(open);
  if (start < 0) return false;
  for (let at = sql.indexOf(tail, start + open.length); at >= 0; at = sql.indexOf(tail, at + 1)) {
    let k = at + tail.length;
    if (!/[A-Za-z]/.test(sql[k] ?? '')) continue;
    while (k < sql.length && /[A-Za-z0-9_+\-/]/.test(sql[k])) k++;
    if (sql.startsWith("')", k)) return true;
  }
  return false;
}

export const MISSING_ZONE_TABLES =
  'The report time zone needs the MySQL time zone tables (mysql_tzinfo_to_sql), which this server has not loaded: ' +
  'load them, or clear the report time zone.';

/**
 * MySQL and MariaDB. Statements go through server-side prepared statements (`execute`), so parameters are
 * bound by the server, never spliced into the text. LOCAL INFILE is off both ways: the client flag is removed
 * and no infile stream factory exists, so the server cannot ask us for a file.
 */
export class MysqlDriver implements WarehouseDriver {
  readonly engine = 'mysql' as const;
  private readonly pool: ResourcePool<Connection>;
  private readonly broken = new WeakSet<Connection>();
  private mariadb: boolean | undefined;
  /** Whether CONVERT_TZ knows named zones (the time zone tables are loaded); asked when a query needs it. */
  private namedZones = false;

  constructor(
    private readonly details: ServerDetails,
    private readonly options: DriverOptions = {},
  ) {
    this.pool = new ResourcePool<Connection>(
      {
        create: () => this.connect(),
        destroy: (c) => c.destroy(),
        isUsable: (c) => !this.broken.has(c),
      },
      poolSettings(options),
    );
  }

  async testConnection(): Promise<void> {
    const conn = await this.connect();
    try {
      await conn.query('SELECT 1');
    } catch (e) {
      throw connectionFailure(e, this.details);
    } finally {
      conn.destroy();
    }
  }

  async describe(): Promise<DescribedDatabase> {
    const conn = await this.pool.acquire();
    try {
      const described = await describeMysql(conn);
      this.pool.release(conn);
      return described;
    } catch (e) {
      this.pool.discard(conn);
      throw statementFailure(e);
    }
  }

  async query(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<QueryResult> {
    checkStatement('mysql', sql, Boolean(opts.readOnly));
    const conn = await this.pool.acquire(opts.signal);
    const guard = this.guard(conn, opts);
    try {
      await this.checkNamedZones(conn, sql);
      const result = await guard.run(() => this.run(conn, sql, params, opts));
      this.giveBack(conn, guard.interrupted);
      return result;
    } catch (e) {
      this.giveBack(conn, guard.interrupted);
      throw this.failure(e, opts);
    }
  }

  /**
   * Through the callback connection under the promise wrapper: its command emits the rows as they arrive and
   * the socket is paused while a full batch waits for the consumer, so the server is about one batch ahead.
   * A stream closed before its end cannot be told to stop on the wire: the statement is killed and the
   * connection dropped rather than the rest read.
   */
  async stream(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<RowStream> {
    checkStatement('mysql', sql, Boolean(opts.readOnly));
    const conn = await this.pool.acquire(opts.signal);
    const guard = this.guard(conn, opts);
    let begun = false;
    let reader: CommandReader | null = null;
    const finish = async () => {
      if (reader && !reader.ended) {
        if (!guard.interrupted) await this.killQuery(conn.threadId).catch(() => undefined);
        this.drop(conn);
      } else if (begun) {
        await this.endStatement(conn, opts);
      }
      await guard.end();
      this.giveBack(conn, guard.interrupted);
    };
    try {
      guard.begin();
      await this.checkNamedZones(conn, sql);
      begun = true;
      const text = await this.beginStatement(conn, sql, opts);
      reader = this.startCommand(conn, text, params);
      const fields = await reader.fields.catch((e: unknown) => {
        if (!unpreparable(e, params)) throw e;
        reader = new CommandReader(core(conn), core(conn).query({ sql: text, rowsAsArray: true }));
        return reader.fields;
      });
      guard.check();
      const open: CommandReader = reader;
      const next = async () => {
        try {
          const batch = await open.next();
          guard.check();
          return batch;
        } catch (e) {
          throw this.failure(guard.translate(e), opts);
        }
      };
      return rowStream((fields ?? []).map(mysqlResultColumn), { next, finish });
    } catch (e) {
      await finish();
      throw this.failure(guard.translate(e), opts);
    }
  }

  /**
   * Without the time zone tables CONVERT_TZ gives NULL for named zones, which would bucket every row into NULL:
   * a query converting to a named zone fails clearly instead. Asked again until the tables are there.
   */
  private async checkNamedZones(conn: Connection, sql: string): Promise<void> {
    if (this.namedZones || !convertsToNamedZone(sql)) return;
    const [rows] = await conn.query<RowDataPacket[]>("SELECT CONVERT_TZ('2024-01-01 00:00:00', '+00:00', 'America/New_York') AS converted");
    this.namedZones = rows[0]?.converted !== null && rows[0]?.converted !== undefined;
    if (!this.namedZones) throw new QueryError(MISSING_ZONE_TABLES);
  }

  poolInfo() {
    return this.pool.info();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /**
   * mysql2's destroy() only ends our side of the socket: a server blocked writing rows to it (a paused stream)
   * would wait for its write timeout. Closing the socket fails that write, and the statement, at once.
   */
  private drop(conn: Connection): void {
    this.broken.add(conn);
    (core(conn) as unknown as { stream?: { destroy(): void } }).stream?.destroy();
  }

  /** A KILL QUERY that arrives after its statement ended may hit the next one, so killed connections go. */
  private giveBack(conn: Connection, interrupted: boolean): void {
    if (interrupted || this.broken.has(conn)) this.pool.discard(conn);
    else this.pool.release(conn);
  }

  private guard(conn: Connection, opts: QueryOptions): QueryGuard {
    return new QueryGuard(
      opts,
      { cancel: () => this.killQuery(conn.threadId), escalate: () => this.drop(conn) },
      opts.timeoutMs ? opts.timeoutMs + SERVER_TIMEOUT_GRACE_MS : null,
    );
  }

  private failure(e: unknown, opts: QueryOptions) {
    if (opts.timeoutMs && TIMEOUT_ERRNOS.has((e as { errno?: number }).errno ?? 0)) return new QueryTimeoutError(opts.timeoutMs);
    return statementFailure(e);
  }

  private async run(conn: Connection, sql: string, params: readonly SqlParam[], opts: QueryOptions): Promise<QueryResult> {
    try {
      const [rows, fields] = await this.execute(conn, await this.beginStatement(conn, sql, opts), params);
      if (!Array.isArray(rows) || !fields) return { columns: [], rows: [] };
      const defs = fields as unknown as MysqlField[];
      const convert = defs.map(mysqlConverter);
      return {
        columns: defs.map(mysqlResultColumn),
        rows: (rows as unknown[][]).map((row) => row.map((v, i) => convert[i](v))),
      };
    } finally {
      await this.endStatement(conn, opts);
    }
  }

  /**
   * Opens what a statement runs in: the read-only transaction and the limits. MariaDB takes all of them in the
   * statement's own text (`SET STATEMENT tx_read_only = 1, ... FOR`), for that statement only: one round trip,
   * nothing left on the session. MySQL needs a transaction and session variables, which endStatement() undoes
   * whatever happened in between.
   */
  private async beginStatement(conn: Connection, sql: string, opts: QueryOptions): Promise<string> {
    // Impersonation: a role of the session, taken back by endStatement (SET STATEMENT does not take a role).
    if (opts.role !== undefined) await conn.query(`SET ROLE ${quoteMysqlIdent(opts.role)}`);
    const limits = this.statementLimits(opts);
    if (this.mariadb) {
      const parts = [...(opts.readOnly ? ['tx_read_only = 1'] : []), ...(limits ? [limits] : [])];
      return parts.length ? `SET STATEMENT ${parts.join(', ')} FOR ${sql}` : sql;
    }
    if (opts.readOnly) await conn.query('START TRANSACTION READ ONLY');
    if (limits) await conn.query(`SET SESSION ${limits}`);
    return sql;
  }

  /** A connection whose session cannot be reset (its role, its limits) is not reused. */
  private async endStatement(conn: Connection, opts: QueryOptions): Promise<void> {
    if (opts.role !== undefined) await conn.query('SET ROLE NONE').catch(() => this.broken.add(conn));
    if (this.mariadb) return;
    if (this.statementLimits(opts)) {
      await conn.query('SET SESSION max_execution_time = DEFAULT, sql_select_limit = DEFAULT').catch(() => this.broken.add(conn));
    }
    if (opts.readOnly) await conn.query('ROLLBACK').catch(() => this.broken.add(conn));
  }

  /** MariaDB takes both limits for this statement only; MySQL needs session variables set and reset. */
  private statementLimits(opts: QueryOptions): string | null {
    const parts: string[] = [];
    if (opts.timeoutMs) {
      parts.push(
        this.mariadb
          ? `max_statement_time = ${Math.max(0.001, opts.timeoutMs / 1000)}`
          : `max_execution_time = ${Math.max(1, Math.ceil(opts.timeoutMs))}`,
      );
    }
    if (opts.maxRows && opts.maxRows > 0) parts.push(`sql_select_limit = ${Math.floor(opts.maxRows)}`);
    return parts.length ? parts.join(', ') : null;
  }

  private async execute(conn: Connection, text: string, params: readonly SqlParam[]): Promise<[unknown, FieldPacket[] | undefined]> {
    const values = params.map(mysqlParam);
    try {
      return await conn.execute({ sql: text, rowsAsArray: true }, values);
    } catch (e) {
      if (unpreparable(e, params)) return conn.query({ sql: text, rowsAsArray: true });
      throw e;
    }
  }

  /** The statement as a prepared one, its rows read as they come (the fallback is the caller's: see unpreparable). */
  private startCommand(conn: Connection, text: string, params: readonly SqlParam[]): CommandReader {
    return new CommandReader(core(conn), core(conn).execute({ sql: text, rowsAsArray: true }, params.map(mysqlParam)));
  }

  private async connect(): Promise<Connection> {
    let conn: Connection;
    try {
      conn = await connectMysql(this.details, this.options.connectTimeoutMs);
    } catch (e) {
      throw connectionFailure(e, this.details);
    }
    // Idle connections the server drops emit 'error'; without a listener that would crash the process.
    conn.on('error', () => this.broken.add(conn));
    try {
      // TIMESTAMP values come back in the session time zone: make that UTC so they can carry a 'Z'. GROUP_CONCAT
      // (percentile/median, see MysqlDialect.percentile) may grow up to the packet size, its real ceiling.
      await conn.query("SET time_zone = '+00:00', group_concat_max_len = @@max_allowed_packet");
      if (this.mariadb === undefined) {
        const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS version');
        this.mariadb = /mariadb/i.test(String(rows[0]?.version));
      }
      return conn;
    } catch (e) {
      conn.destroy();
      throw connectionFailure(e, this.details);
    }
  }

  private async killQuery(threadId: number): Promise<void> {
    if (!Number.isInteger(threadId)) return;
    const conn = await this.connect();
    try {
      await conn.query(`KILL QUERY ${threadId}`);
    } finally {
      conn.destroy();
    }
  }
}

function mysqlParam(p: SqlParam) {
  const v = paramValue(p);
  return typeof v === 'bigint' ? v.toString() : v;
}

/** A few statements (some SHOW forms) cannot be prepared; without parameters nothing is spliced in when sent as text. */
function unpreparable(e: unknown, params: readonly SqlParam[]): boolean {
  return (e as { errno?: number } | null)?.errno === ER_UNSUPPORTED_PS && params.length === 0;
}

/** A role name as a MariaDB/MySQL identifier: back-quoted, its back quotes doubled (it comes from a user attribute). */
export function quoteMysqlIdent(name: string): string {
  if (name.includes('\u0000')) throw new StatementRejectedError('A role name cannot contain a NUL character.', 'role');
  return `\`${name.replace(/`/g, '``')}\``;
}
