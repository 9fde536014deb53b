import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { FileDetails } from '../../../query-engine/execute/drivers';
import { DUCKDB_LOCKED_CONFIG } from '../../../query-engine/execute/drivers/duckdb.driver';
import { ROW_ID, type UploadType } from '../column-types';
import { RowRejectedError, type BulkLoader, type RowBatches, type TableTarget, type UploadColumn } from './bulk-loader';

const TYPES: Record<UploadType, string> = {
  int: 'INTEGER',
  bigint: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'TIMESTAMP',
  'offset-datetime': 'TIMESTAMPTZ',
  text: 'VARCHAR',
};

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (t: TableTarget) => `${ident(t.schema ?? 'main')}.${ident(t.table)}`;

/**
 * DuckDB: a writable instance of the file for the duration of one load (the server's own instance is read-only
 * and must be closed first: see UploadsService), DDL and rows in one transaction, rows through the appender
 * (DuckDB casts each text value to the column's type). The generated key is numbered here: the appender does
 * not fill defaults from sequences.
 */
export class DuckDbLoader implements BulkLoader {
  constructor(
    private readonly details: FileDetails,
    private readonly limits: { memoryLimit?: string; threads?: number },
  ) {}

  async create(target: TableTarget, columns: UploadColumn[], pk: string | null, rows: RowBatches): Promise<number> {
    const defs = columns.map((c) => `${ident(c.name)} ${TYPES[c.type]}${c.name === pk ? ' PRIMARY KEY' : ''}`);
    if (pk === null) defs.unshift(`${ident(ROW_ID)} INTEGER PRIMARY KEY`);
    return this.inTransaction(async (conn) => {
      await conn.run(`CREATE TABLE ${qualified(target)} (${defs.join(', ')})`);
      return appendRows(conn, target, rows, pk === null ? 1 : null);
    });
  }

  async append(target: TableTarget, columns: UploadColumn[], rows: RowBatches, replace: boolean): Promise<number> {
    return this.inTransaction(async (conn) => {
      if (replace) await conn.run(`DELETE FROM ${qualified(target)}`);
      const names = (await conn.runAndReadAll(`SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`, [target.schema ?? 'main', target.table])).getRows().map((r) => String(r[0]));
      let firstId: number | null = null;
      if (names[0] === ROW_ID) {
        const max = (await conn.runAndReadAll(`SELECT coalesce(max(${ident(ROW_ID)}), 0) FROM ${qualified(target)}`)).getRows()[0][0];
        firstId = Number(max) + 1;
      }
      // The appender fills columns in table order: the file's columns must be in that order too.
      const order = columns.map((c) => names.indexOf(c.name));
      return appendRows(conn, target, rows, firstId, order.every((p, i) => p === i + (firstId === null ? 0 : 1)) ? null : order);
    });
  }

  async drop(target: TableTarget): Promise<void> {
    await this.inTransaction((conn) => conn.run(`DROP TABLE IF EXISTS ${qualified(target)}`));
  }

  async close(): Promise<void> {}

  private async inTransaction<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const { memoryLimit, threads } = this.limits;
    const instance = await DuckDBInstance.create(this.details.db, {
      ...DUCKDB_LOCKED_CONFIG,
      access_mode: 'READ_WRITE',
      ...(memoryLimit ? { memory_limit: memoryLimit } : {}),
      ...(threads ? { threads: String(threads) } : {}),
    });
    const conn = await instance.connect();
    try {
      await conn.run('BEGIN TRANSACTION');
      try {
        const result = await work(conn);
        await conn.run('COMMIT');
        return result;
      } catch (e) {
        await conn.run('ROLLBACK').catch(() => undefined);
        throw e;
      }
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  }
}

async function appendRows(conn: DuckDBConnection, target: TableTarget, rows: RowBatches, firstId: number | null, order: number[] | null = null): Promise<number> {
  const appender = await conn.createAppender(target.table, target.schema ?? 'main');
  let count = 0;
  let id = firstId ?? 0;
  try {
    for await (const batch of rows) {
      try {
        for (const raw of batch) {
          const row = order ? reorder(raw, order, firstId !== null) : raw;
          if (firstId !== null) appender.appendInteger(id++);
          for (let i = 0; i < row.length; i++) {
            const v = row[i];
            if (v === null) appender.appendNull();
            else appender.appendVarchar(v);
          }
          appender.endRow();
        }
      } catch (e) {
        // The appender's errors are about the values it was given (casts, constraints).
        throw new RowRejectedError((e as Error).message);
      }
      count += batch.length;
    }
    try {
      appender.flushSync();
    } catch (e) {
      throw new RowRejectedError((e as Error).message);
    }
  } finally {
    try {
      appender.closeSync();
    } catch {
      // Already failed (and reported) above.
    }
  }
  return count;
}

/** The file's values in the table's column order (positions from the table's first non-key column). */
function reorder(row: Array<string | null>, order: number[], keyFirst: boolean): Array<string | null> {
  const out: Array<string | null> = Array(row.length).fill(null);
  for (let i = 0; i < order.length; i++) out[order[i] - (keyFirst ? 1 : 0)] = row[i];
  return out;
}
