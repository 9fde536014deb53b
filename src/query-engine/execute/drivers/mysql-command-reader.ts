import type { Connection as CoreConnection, Query as CoreCommand } from 'mysql2';
import type { Connection } from 'mysql2/promise';
import { mysqlConverter, type MysqlField } from './mysql-columns';
import { RowBatcher } from './row-batcher';

/** The callback connection under mysql2's promise wrapper: its commands emit rows as they arrive. */
export function core(conn: Connection): CoreConnection {
  return (conn as unknown as { connection: CoreConnection }).connection;
}

/**
 * The rows of one running command, converted as they arrive and handed out in batches (the connection is
 * paused while a full batch waits, see RowBatcher).
 */
export class CommandReader {
  /** The result's columns (undefined for a statement without rows); rejects when the statement fails to start. */
  readonly fields: Promise<MysqlField[] | undefined>;
  private readonly rows: RowBatcher;
  private convert: ((v: unknown) => unknown)[] = [];

  constructor(conn: CoreConnection, command: CoreCommand) {
    this.rows = new RowBatcher(conn);
    let described: (fields: MysqlField[] | undefined) => void = () => undefined;
    let failed: (e: unknown) => void = () => undefined;
    this.fields = new Promise((resolve, reject) => ((described = resolve), (failed = reject)));
    // The caller waits for the fields; a failure after them must not also count as unhandled here.
    this.fields.catch(() => undefined);
    const fail = (e: unknown) => {
      failed(e);
      this.rows.fail(e);
    };
    command.on('fields', (fields?: MysqlField[]) => {
      this.convert = (fields ?? []).map(mysqlConverter);
      described(fields);
    });
    // A lost connection is reported on the connection only, not on a command without a callback.
    conn.on('error', fail);
    command.on('result', (row: unknown) => {
      // A statement without rows reports its OK packet as a result.
      if (!Array.isArray(row)) return;
      for (let i = 0; i < row.length; i++) row[i] = this.convert[i](row[i]);
      this.rows.add(row);
    });
    command.on('error', fail);
    command.on('end', () => {
      conn.removeListener('error', fail);
      described(undefined);
      this.rows.end();
    });
  }

  /** The command is over: the connection is free for the next one. */
  get ended(): boolean {
    return this.rows.ended;
  }

  /** The next batch, null after the last; throws the statement's error. */
  next(): Promise<unknown[][] | null> {
    return this.rows.next();
  }
}
