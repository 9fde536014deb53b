import type { Connection as CoreConnection, Query as CoreCommand } from 'mysql2';
import type { Connection } from 'mysql2/promise';
import { mysqlConverter, type MysqlField } from './mysql-columns';
import { STREAM_BATCH_ROWS } from './row-stream';

/** The callback connection under mysql2's promise wrapper: its commands emit rows as they arrive. */
export function core(conn: Connection): CoreConnection {
  return (conn as unknown as { connection: CoreConnection }).connection;
}

/**
 * The rows of one running command, converted and gathered into batches. The connection is paused while a full
 * batch waits for the consumer and resumed when it is taken, so about one batch is read ahead.
 */
export class CommandReader {
  /** The result's columns (undefined for a statement without rows); rejects when the statement fails to start. */
  readonly fields: Promise<MysqlField[] | undefined>;
  /** The command is over: the connection is free for the next one. */
  ended = false;
  private convert: ((v: unknown) => unknown)[] = [];
  private filling: unknown[][] = [];
  private readonly ready: unknown[][][] = [];
  private error: unknown = null;
  private paused = false;
  private wake: (() => void) | null = null;
  private settleFields: (fields: MysqlField[] | undefined) => void = () => undefined;
  private failFields: (e: unknown) => void = () => undefined;

  constructor(
    private readonly conn: CoreConnection,
    command: CoreCommand,
  ) {
    this.fields = new Promise((resolve, reject) => {
      this.settleFields = resolve;
      this.failFields = reject;
    });
    // The caller waits for the fields; a failure after them must not also count as unhandled here.
    this.fields.catch(() => undefined);
    command.on('fields', (fields?: MysqlField[]) => {
      this.convert = (fields ?? []).map(mysqlConverter);
      this.settleFields(fields);
    });
    // A lost connection is reported on the connection only, not on a command without a callback.
    const lost = (e: unknown) => this.fail(e);
    conn.on('error', lost);
    command.on('result', (row: unknown) => this.add(row));
    command.on('error', (e: unknown) => this.fail(e));
    command.on('end', () => {
      conn.removeListener('error', lost);
      this.ended = true;
      if (this.filling.length) this.ready.push(this.filling);
      this.filling = [];
      this.settleFields(undefined);
      this.signal();
    });
  }

  /** The next batch, null after the last; throws the statement's error. */
  async next(): Promise<unknown[][] | null> {
    while (!this.ready.length && !this.ended && !this.error) await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.error) throw this.error;
    const batch = this.ready.shift() ?? null;
    if (this.paused) {
      this.paused = false;
      this.conn.resume();
    }
    return batch;
  }

  private fail(e: unknown): void {
    this.error ??= e;
    this.failFields(e);
    this.signal();
  }

  private add(row: unknown): void {
    // A statement without rows reports its OK packet as a result.
    if (!Array.isArray(row)) return;
    for (let i = 0; i < row.length; i++) row[i] = this.convert[i](row[i]);
    this.filling.push(row);
    if (this.filling.length < STREAM_BATCH_ROWS) return;
    this.ready.push(this.filling);
    this.filling = [];
    if (!this.paused) {
      this.paused = true;
      this.conn.pause();
    }
    this.signal();
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
