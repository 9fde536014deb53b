import Database from 'better-sqlite3';
import type { Pool, QueryResult, QueryResultRow } from 'pg';
import { QueryFailedError, type DataSource } from 'typeorm';
import { sql, Sql } from './sql';

/** The parts of a better-sqlite3 handle used here. */
interface SqliteHandle {
  inTransaction: boolean;
  prepare(sql: string): { reader: boolean; all(...params: unknown[]): unknown[]; run(...params: unknown[]): { changes: number } };
}

/** Distinct statement texts are a few dozen constants; the bound only guards against a caller building SQL. */
const MAX_CACHED_STATEMENTS = 500;

type Statement = ReturnType<SqliteHandle['prepare']>;

/** Per handle, shared by every AppSql on it (some are made per request). */
const statementCaches = new WeakMap<SqliteHandle, Map<string, Statement>>();

/**
 * Plain SQL on the app database, for the few queries on hot paths where building SQL through the ORM costs more
 * than running it. Write `$1, $2, ...`; on SQLite they become `?` and dates and booleans are converted the way the
 * ORM stores them (UTC text, 0/1), since raw queries bypass its conversions.
 */
export class AppSql {
  readonly pg: boolean;

  constructor(private readonly db: DataSource) {
    this.pg = db.options.type === 'postgres';
  }

  /**
   * `column` is one of `ids`, bound as one value however many there are (a Postgres array, a JSON array on
   * SQLite): a statement per listing, not per chunk of ids, and no limit on bound variables.
   */
  idIn(column: Sql, ids: readonly number[]): Sql {
    return this.pg ? sql`${column} = ANY(${[...ids]}::int[])` : sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;
  }

  /** Runs a statement: a `Sql` (sql.ts), or text with `$1, $2, ...` and its values. */
  query<T>(statement: Sql): Promise<T[]>;
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  async query<T>(statement: string | Sql, params: readonly unknown[] = []): Promise<T[]> {
    const { text, values } = this.bindAny(statement, params);
    const direct = this.direct(text, values, 'all');
    if (direct) return direct as T[];
    return this.db.query(text, values);
  }

  /**
   * Runs a SELECT and yields its rows `size` at a time as the database produces them, for listings too large to hold
   * whole: a cursor in a read-only transaction on a connection of its own on Postgres, and on SQLite a read-only connection of its own (a
   * statement being iterated keeps its connection busy, and the shared one serves every other request meanwhile;
   * WAL lets it read beside the writer). Leaving the loop early closes the cursor.
   */
  async *batches<T>(statement: Sql, size: number): AsyncGenerator<T[]> {
    const { text, values } = this.bindAny(statement, []);
    if (this.pg) {
      const client = await (this.db.driver as unknown as { master: Pool }).master.connect();
      let unclean: Error | undefined;
      let next: Promise<QueryResult<T & QueryResultRow>> | undefined;
      try {
        // A declared cursor, not a protocol-level portal: Postgres plans it for the first rows (an index in the
        // listing's order instead of building every row and then sorting them all), so rows flow at once.
        await client.query('BEGIN READ ONLY');
        await client.query(`DECLARE app_batches NO SCROLL CURSOR FOR ${text}`, values);
        const fetch = () => {
          const batch = client.query<T & QueryResultRow>(`FETCH ${size} FROM app_batches`);
          // Handled when awaited; until then a failure must not count as an unhandled rejection.
          batch.catch(() => undefined);
          return batch;
        };
        next = fetch();
        for (;;) {
          const { rows } = await next;
          if (rows.length === 0) break;
          // The database produces the next batch while the caller writes this one: the two took turns before, and a
          // listing took as long as both together.
          next = fetch();
          yield rows;
        }
      } catch (e) {
        throw new QueryFailedError(text, values, e as Error);
      } finally {
        // A batch still being fetched when the loop was left early: the client runs its queries in order, so the
        // rollback waits for it anyway.
        await next?.catch(() => undefined);
        // Also when the loop was left early: the transaction (and the cursor with it) ends here. A connection that
        // cannot even roll back is not given back to the pool.
        await client.query('ROLLBACK').catch((e: Error) => (unclean = e));
        client.release(unclean);
      }
      return;
    }
    const file = this.db.options.database as string;
    const reader = file && file !== ':memory:' ? new Database(file, { readonly: true, fileMustExist: true, timeout: 10_000 }) : null;
    // Outside WAL a reader's lock would make the writer fail meanwhile: then the rows are read whole, as query() does.
    if (!reader || reader.pragma('journal_mode', { simple: true }) !== 'wal') {
      reader?.close();
      const rows = (await this.query(text, values)) as T[];
      for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
      return;
    }
    try {
      let batch: T[] = [];
      for (const row of reader.prepare(text).iterate(...values) as IterableIterator<T>) {
        batch.push(row);
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    } catch (e) {
      throw e instanceof QueryFailedError ? e : new QueryFailedError(text, values, e as Error);
    } finally {
      reader.close();
    }
  }

  /**
   * Runs an INSERT, UPDATE or DELETE and answers how many rows it changed. The structured result is needed: the
   * plain one is the last insert id for an UPDATE on better-sqlite3.
   */
  execute(statement: Sql): Promise<number>;
  execute(sql: string, params?: readonly unknown[]): Promise<number>;
  async execute(statement: string | Sql, params: readonly unknown[] = []): Promise<number> {
    const { text, values } = this.bindAny(statement, params);
    const direct = this.direct(text, values, 'run');
    if (direct) return direct.changes;
    const runner = this.db.createQueryRunner();
    try {
      const result = await runner.query(text, values, true);
      return result.affected ?? 0;
    } finally {
      await runner.release();
    }
  }

  /**
   * On SQLite, a cached prepared statement run on the handle itself: the ORM's runner costs about 0.1 ms a
   * query, several times the query. Only while no transaction is open on the shared handle (better-sqlite3 is
   * synchronous, so none can open in between); otherwise the ORM's runner, which waits its turn (see
   * sqlite-transaction-lock.ts), so that nothing runs inside another request's transaction.
   */
  private direct(text: string, values: unknown[], mode: 'all'): unknown[] | null;
  private direct(text: string, values: unknown[], mode: 'run'): { changes: number } | null;
  private direct(text: string, values: unknown[], mode: 'all' | 'run'): unknown[] | { changes: number } | null {
    if (this.pg) return null;
    const handle = (this.db.driver as unknown as { databaseConnection?: SqliteHandle }).databaseConnection;
    if (!handle || handle.inTransaction) return null;
    let statements = statementCaches.get(handle);
    if (!statements) statementCaches.set(handle, (statements = new Map()));
    try {
      let statement = statements.get(text);
      if (!statement) {
        statement = handle.prepare(text);
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
        statements.set(text, statement);
      }
      // A statement of the other kind (a write through query(), RETURNING through execute()) takes the ORM's
      // path, whose answers for those cases callers may rely on.
      if (statement.reader !== (mode === 'all')) return null;
      return mode === 'all' ? statement.all(...values) : statement.run(...values);
    } catch (e) {
      // The same error type the ORM's path throws, so callers (unique violations) need not know the path.
      throw new QueryFailedError(text, values, e as Error);
    }
  }

  /**
   * Postgres takes `$n` as it is. SQLite gets one `?` per occurrence with the values in that order, so that a
   * placeholder used twice or out of order binds the value its number names (better-sqlite3 cannot mix `?NNN`
   * with an array of values).
   */
  private bindAny(statement: string | Sql, params: readonly unknown[]): { text: string; values: unknown[] } {
    if (typeof statement === 'string') return this.bind(statement, params);
    const { text, values } = statement.numbered();
    return this.bind(text, values);
  }

  private bind(sql: string, params: readonly unknown[]): { text: string; values: unknown[] } {
    if (this.pg) return { text: sql, values: [...params] };
    const values: unknown[] = [];
    const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
      const i = Number(n) - 1;
      if (i < 0 || i >= params.length) throw new RangeError(`No value for placeholder $${n} (${params.length} given)`);
      values.push(this.value(params[i]));
      return '?';
    });
    return { text, values };
  }

  private value(v: unknown): unknown {
    if (this.pg) return v;
    if (v instanceof Date) return v.toISOString().replace('T', ' ').replace('Z', '');
    if (typeof v === 'boolean') return v ? 1 : 0;
    return v;
  }
}
