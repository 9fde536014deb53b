import { Client, Query, type ClientConfig } from 'pg';
import { baseTypeFor } from './base-types';
import { tlsOptions, type ServerDetails } from './details';
import type { DescribedDatabase, DriverOptions, QueryOptions, QueryResult, RowStream, SqlParam, WarehouseDriver } from './driver';
import { QueryTimeoutError, StatementRejectedError } from './errors';
import { describePostgres } from './postgres-describe';
import { BUILTIN_TYPE_NAMES, RESULT_TYPES } from './postgres-types';
import { QueryGuard } from './query-guard';
import { ResourcePool } from './resource-pool';
import { rowStream } from './row-stream';
import { RowBatcher } from './row-batcher';
import { connectionFailure, statementFailure } from './server-errors';
import { poolSettings, SERVER_TIMEOUT_GRACE_MS } from './settings';
import { checkStatement } from './statement-policy';
import { questionMarksToDollars } from './sql-scan';
import { paramValue } from './values';
import { PipelinedQuery } from './postgres-pipeline';

interface PgField {
  name: string;
  dataTypeID: number;
}

/** What pg's Query hands its callback (a Result builder; not exported by the typings). */
interface PgResult {
  rows: unknown[][];
  fields: PgField[];
}

/**
 * Every field is set explicitly: pg would otherwise fill gaps from PG* environment variables and ~/.pgpass,
 * handing the server's own credentials to a host the user chose. The session runs in UTC.
 */
export function postgresClientConfig(d: ServerDetails, connectTimeoutMs = 10_000): ClientConfig {
  return {
    host: d.host,
    port: d.port,
    database: d.dbname,
    user: d.user,
    password: () => d.password ?? '',
    ssl: tlsOptions(d) ?? false,
    sslnegotiation: 'postgres',
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
    application_name: 'analytics-server',
    options: '-c TimeZone=UTC',
    client_encoding: 'UTF8',
  };
}

/** What our Query subclasses call on pg's connection, and the base methods they extend (not in pg's typings). */
interface PgWire {
  sync(): void;
}
const queryProto = Query.prototype as unknown as {
  prepare(connection: PgWire): void;
  handleCommandComplete(msg: unknown, connection: PgWire): void;
  handleError(err: unknown, connection: PgWire): void;
};

/**
 * pg's Query with a row limit: the portal is executed for `rows` rows and, instead of asking for more when
 * it is suspended, we sync, which closes it. The database stops producing rows past maxRows. Always the
 * extended protocol, which also makes the server refuse a second statement.
 */
class BoundedQuery extends Query {
  /** With a row limit pg holds the Sync back (to page through the portal): whoever ends the statement sends it, once. */
  private synced = false;
  /** pg syncs itself when a value fails to bind while it writes the statement. */
  private preparing = false;

  prepare(connection: PgWire): void {
    this.preparing = true;
    try {
      queryProto.prepare.call(this, connection);
    } finally {
      this.preparing = false;
    }
  }

  handlePortalSuspended(connection: PgWire): void {
    this.sync(connection);
  }

  handleCommandComplete(msg: unknown, connection: PgWire): void {
    queryProto.handleCommandComplete.call(this, msg, connection);
    if (this.limited) this.synced = true;
  }

  /**
   * A statement that fails (or is cancelled) before its limit: the server skips everything up to a Sync, which
   * pg has not sent, so without this the connection would wait for it forever (and the next statement with it).
   */
  handleError(err: unknown, connection: PgWire): void {
    if (this.preparing) this.synced = true;
    else if (this.limited) this.sync(connection);
    queryProto.handleError.call(this, err, connection);
  }

  private get limited(): boolean {
    return Boolean((this as unknown as { rows?: number }).rows);
  }

  private sync(connection: PgWire): void {
    if (this.synced) return;
    this.synced = true;
    connection.sync();
  }
}

/**
 * A statement's rows as they arrive: `fields` settles with the row description; `done` with the end or the error;
 * `completed` is set when the server said it was ready again after a statement that did not fail (after an error
 * pg hands that message to no query: until it arrives, the transaction's state is not known).
 */
interface StreamedRows {
  batches: RowBatcher;
  fields: Promise<PgField[]>;
  done: Promise<void>;
  readonly completed: boolean;
}

/**
 * Sends `query`'s rows to a RowBatcher as they arrive instead of into one result (pg accumulates rows only for a
 * query with a callback or without 'row' listeners). Works on the plain statement (BoundedQuery) and on one wrapped
 * in its transaction (PipelinedQuery, whose own statements describe no rows).
 */
function streamRows(query: Query, socket: { pause(): void; resume(): void }): StreamedRows {
  const batches = new RowBatcher(socket);
  let described: (fields: PgField[]) => void = () => undefined;
  let failed: (e: unknown) => void = () => undefined;
  const fields = new Promise<PgField[]>((resolve, reject) => ((described = resolve), (failed = reject)));
  // A failure after the fields reaches the consumer through `batches`; it must not also count as unhandled here.
  fields.catch(() => undefined);
  const own = query as unknown as { handleRowDescription(msg: { fields: PgField[] }): void };
  const handleRowDescription = own.handleRowDescription;
  own.handleRowDescription = (msg) => {
    handleRowDescription.call(query, msg);
    described(msg.fields);
  };
  let completed = false;
  const done = new Promise<void>((resolve) => {
    query.on('row', (row: unknown[]) => batches.add(row));
    query.on('end', (result: { fields?: PgField[] } | undefined) => {
      completed = true;
      described(result?.fields ?? []);
      batches.end();
      resolve();
    });
    query.on('error', (e: unknown) => {
      failed(e);
      batches.fail(e);
      resolve();
    });
  });
  return {
    batches,
    fields,
    done,
    get completed() {
      return completed;
    },
  };
}

/** A role name as a Postgres identifier: double-quoted, its quotes doubled (it comes from a user attribute). */
export function quotePgIdent(name: string): string {
  if (name.includes('\u0000')) throw new StatementRejectedError('A role name cannot contain a NUL character.', 'role');
  return `"${name.replace(/"/g, '""')}"`;
}

/** 'I' idle, 'T' in a transaction, 'E' in a failed one: from the server's last ReadyForQuery. */
function transactionStatus(client: Client): string | null {
  return (client as unknown as { _txStatus: string | null })._txStatus;
}

/** The socket under pg's client: pausing it stops the rows where TCP holds them. */
function socketOf(client: Client): { pause(): void; resume(): void } {
  return (client as unknown as { connection: { stream: { pause(): void; resume(): void } } }).connection.stream;
}

export class PostgresDriver implements WarehouseDriver {
  readonly engine = 'postgres' as const;
  private readonly pool: ResourcePool<Client>;
  private readonly broken = new WeakSet<Client>();
  private readonly typeNames = new Map<number, string>(Object.entries(BUILTIN_TYPE_NAMES).map(([k, v]) => [Number(k), v]));

  constructor(
    private readonly details: ServerDetails,
    private readonly options: DriverOptions = {},
  ) {
    this.pool = new ResourcePool<Client>(
      {
        create: () => this.connect(),
        destroy: (c) => c.end(),
        isUsable: (c) => !this.broken.has(c),
      },
      poolSettings(options),
    );
  }

  async testConnection(): Promise<void> {
    const client = await this.connect();
    try {
      await client.query('SELECT 1');
    } catch (e) {
      throw connectionFailure(e, this.details);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  async describe(): Promise<DescribedDatabase> {
    const client = await this.pool.acquire();
    try {
      const described = await describePostgres(client);
      this.pool.release(client);
      return described;
    } catch (e) {
      this.pool.discard(client);
      throw statementFailure(e);
    }
  }

  /** All rows in one go: the fastest way to read a whole result (stream() for large ones). */
  async query(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<QueryResult> {
    const text = this.statementText(sql, params, opts);
    const client = await this.pool.acquire(opts.signal);
    const guard = this.guard(client, opts);
    try {
      const result = await guard.run(() => this.run(client, text, params, opts));
      const columns = await this.describeColumns(result.fields);
      this.pool.release(client);
      return { columns, rows: result.rows };
    } catch (e) {
      this.giveBack(client);
      throw this.failure(e, opts);
    }
  }

  /**
   * The statement goes out as query() sends it, its transaction's statements and all (one round trip); its rows
   * are taken as they arrive and the socket is paused while a full batch waits for the consumer, so the server is
   * about one batch ahead. A stream closed before its end cancels the statement and drops the rows still coming;
   * the transaction then ends with a ROLLBACK of ours (the server skipped the pipelined one).
   */
  async stream(sql: string, params: readonly SqlParam[] = [], opts: QueryOptions = {}): Promise<RowStream> {
    const text = this.statementText(sql, params, opts);
    const client = await this.pool.acquire(opts.signal);
    const guard = this.guard(client, opts);
    const inTransaction = Boolean(opts.readOnly || opts.timeoutMs || opts.role);
    let streamed: StreamedRows | null = null;
    const finish = async () => {
      if (streamed && !streamed.batches.ended) {
        streamed.batches.discardRest();
        if (!guard.interrupted) await this.cancelBackend(client).catch(() => this.dropConnection(client));
        await streamed.done;
      }
      // Unless the pipelined ROLLBACK is known to have run, ours (queued by pg behind the server's answer).
      if (inTransaction && !(streamed?.completed && transactionStatus(client) === 'I')) await this.rollBack(client);
      await guard.end();
      this.giveBack(client);
    };
    try {
      guard.begin();
      const config = {
        text,
        values: params.map(paramValue),
        rowMode: 'array',
        types: RESULT_TYPES,
        queryMode: 'extended',
        rows: opts.maxRows && opts.maxRows > 0 ? opts.maxRows : undefined,
      } as ConstructorParameters<typeof Query>[0];
      const wrapping = inTransaction ? this.wrapping(opts) : null;
      const query = wrapping ? new PipelinedQuery(config, wrapping.before, wrapping.after) : new BoundedQuery(config);
      streamed = streamRows(query, socketOf(client));
      client.query(query);
      const columns = await this.describeColumns(await streamed.fields);
      guard.check();
      const open = streamed;
      const next = async () => {
        try {
          const batch = await open.batches.next();
          guard.check();
          return batch;
        } catch (e) {
          throw this.failure(guard.translate(e), opts);
        }
      };
      return rowStream(columns, { next, finish });
    } catch (e) {
      await finish();
      throw this.failure(guard.translate(e), opts);
    }
  }

  poolInfo() {
    return this.pool.info();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private statementText(sql: string, params: readonly SqlParam[], opts: QueryOptions): string {
    const scanned = checkStatement('postgres', sql, Boolean(opts.readOnly));
    const { sql: text, count } = questionMarksToDollars(sql, scanned);
    if (count !== params.length) {
      throw new StatementRejectedError(
        `The query has ${count} parameter placeholder(s) but ${params.length} value(s) were given (write ?? for a literal ?).`,
        'parameter-count',
      );
    }
    return text;
  }

  private guard(client: Client, opts: QueryOptions): QueryGuard {
    return new QueryGuard(
      opts,
      { cancel: () => this.cancelBackend(client), escalate: () => this.dropConnection(client) },
      opts.timeoutMs ? opts.timeoutMs + SERVER_TIMEOUT_GRACE_MS : null,
    );
  }

  private giveBack(client: Client): void {
    if (this.broken.has(client)) this.pool.discard(client);
    else this.pool.release(client);
  }

  private failure(e: unknown, opts: QueryOptions) {
    const failure = statementFailure(e);
    if (opts.timeoutMs && (failure as { code?: string }).code === '57014' && /statement timeout/.test(failure.message)) {
      return new QueryTimeoutError(opts.timeoutMs);
    }
    return failure;
  }

  /**
   * BEGIN READ ONLY / SET LOCAL statement_timeout / SET LOCAL ROLE make every setting end with the statement's
   * transaction: the connection goes back to the pool with its own role.
   */
  private wrapping(opts: QueryOptions): { before: string[]; after: string[] } {
    const before = [opts.readOnly ? 'BEGIN READ ONLY' : 'BEGIN'];
    if (opts.timeoutMs) before.push(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(opts.timeoutMs))}`);
    if (opts.role !== undefined) before.push(`SET LOCAL ROLE ${quotePgIdent(opts.role)}`);
    return { before, after: [opts.readOnly ? 'ROLLBACK' : 'COMMIT'] };
  }

  /**
   * A statement in a transaction goes out with its BEGIN, SET LOCAL and ROLLBACK in one pipeline: one round
   * trip. Whatever happened, the connection must come back idle (no transaction, so none of the statement's
   * settings survive it); one that is not is rolled back here, or dropped.
   */
  private async run(client: Client, text: string, params: readonly SqlParam[], opts: QueryOptions): Promise<PgResult> {
    const inTransaction = Boolean(opts.readOnly || opts.timeoutMs || opts.role);
    const wrapping = inTransaction ? this.wrapping(opts) : null;
    let result: PgResult;
    try {
      result = await this.submit(client, text, params, opts.maxRows, wrapping);
    } catch (e) {
      // pg reports an error before the server's ReadyForQuery, so the status is not known yet: roll back anyway.
      if (inTransaction) await this.rollBack(client);
      throw e;
    }
    if (inTransaction && transactionStatus(client) !== 'I') await this.rollBack(client);
    return result;
  }

  private async rollBack(client: Client): Promise<void> {
    await client.query('ROLLBACK').catch(() => this.broken.add(client));
    if (transactionStatus(client) !== 'I') this.broken.add(client);
  }

  private submit(
    client: Client,
    text: string,
    params: readonly SqlParam[],
    maxRows: number | undefined,
    wrapping: { before: string[]; after: string[] } | null,
  ): Promise<PgResult> {
    return new Promise((resolve, reject) => {
      const config = {
        text,
        values: params.map(paramValue),
        rowMode: 'array',
        types: RESULT_TYPES,
        queryMode: 'extended',
        rows: maxRows && maxRows > 0 ? maxRows : undefined,
        callback: (err: Error | undefined, res: PgResult) => (err ? reject(err) : resolve(res)),
      } as ConstructorParameters<typeof Query>[0];
      client.query(wrapping ? new PipelinedQuery(config, wrapping.before, wrapping.after) : new BoundedQuery(config));
    });
  }

  /**
   * Names of types beyond the built-in ones (enums, domains, extensions) are looked up once per driver, on a
   * connection of their own: the statement's may be busy with a cursor.
   */
  private async describeColumns(fields: PgField[] | undefined) {
    const unknown = (fields ?? []).map((f) => f.dataTypeID).filter((oid) => !this.typeNames.has(oid));
    if (unknown.length) {
      const client = await this.connect();
      try {
        const found = await client.query<{ oid: number; typname: string }>(
          'SELECT oid::int AS oid, typname FROM pg_type WHERE oid = ANY($1::oid[])',
          [unknown],
        );
        for (const r of found.rows) this.typeNames.set(r.oid, r.typname);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    return (fields ?? []).map((f) => {
      const databaseType = this.typeNames.get(f.dataTypeID) ?? String(f.dataTypeID);
      return { name: f.name, databaseType, baseType: baseTypeFor('postgres', databaseType) };
    });
  }

  private async connect(): Promise<Client> {
    const client = new Client(postgresClientConfig(this.details, this.options.connectTimeoutMs));
    // An idle connection the server drops emits 'error'; without a listener that would crash the process.
    client.on('error', () => this.broken.add(client));
    client.on('end', () => this.broken.add(client));
    try {
      await client.connect();
      return client;
    } catch (e) {
      await client.end().catch(() => undefined);
      throw connectionFailure(e, this.details);
    }
  }

  /** From a separate connection: the busy one is waiting for its statement. */
  private async cancelBackend(busy: Client): Promise<void> {
    const pid = (busy as unknown as { processID: number }).processID;
    const client = await this.connect();
    try {
      await client.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private dropConnection(client: Client): void {
    this.broken.add(client);
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}
