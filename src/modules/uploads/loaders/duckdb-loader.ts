import { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { FileDetails } from '../../../query-engine/execute/drivers';
import { DUCKDB_LOCKED_CONFIG } from '../../../query-engine/execute/drivers/duckdb-config';
import { ROW_ID, type UploadType } from '../column-types';
import { RowRejectedError, type BulkLoader, type RawCsv, type RowBatches, type TableTarget, type UploadColumn } from './bulk-loader';
import { offsetsInUtc } from './offset-datetime';

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
 * and must be closed first: see UploadsService), DDL and rows in one transaction. The file is read by DuckDB
 * itself (read_csv on its own threads, every value as text, normalized and cast in SQL: see insertFile); when that
 * fails, rows go through the appender (DuckDB casts each text value to the column's type), which gives the same
 * table or the error a user should see.
 */
export class DuckDbLoader implements BulkLoader {
  constructor(
    private readonly details: FileDetails,
    private readonly limits: { memoryLimit?: string; threads?: number },
  ) {}

  async create(target: TableTarget, columns: UploadColumn[], pk: string | null, rows: RowBatches, raw?: RawCsv): Promise<number> {
    const defs = columns.map((c) => `${ident(c.name)} ${TYPES[c.type]}${c.name === pk ? ' PRIMARY KEY' : ''}`);
    if (pk === null) defs.unshift(`${ident(ROW_ID)} INTEGER PRIMARY KEY`);
    const createTable = `CREATE TABLE ${qualified(target)} (${defs.join(', ')})`;
    if (raw) {
      const loaded = await this.fromFile(raw, async (conn) => {
        await conn.run(createTable);
        return insertFile(conn, target, columns, raw, pk === null ? 1 : null);
      });
      if (loaded !== null) return loaded;
    }
    return this.inTransaction(async (conn) => {
      await conn.run(createTable);
      return appendRows(conn, target, offsetsInUtc(rows, columns), pk === null ? 1 : null);
    });
  }

  async append(target: TableTarget, columns: UploadColumn[], rows: RowBatches, replace: boolean, raw?: RawCsv): Promise<number> {
    const prepare = async (conn: DuckDBConnection) => {
      if (replace) await conn.run(`DELETE FROM ${qualified(target)}`);
      const names = await columnNames(conn, target);
      if (names[0] !== ROW_ID) return { names, firstId: null };
      const max = (await conn.runAndReadAll(`SELECT coalesce(max(${ident(ROW_ID)}), 0) FROM ${qualified(target)}`)).getRows()[0][0];
      return { names, firstId: Number(max) + 1 };
    };
    if (raw) {
      const loaded = await this.fromFile(raw, async (conn) => insertFile(conn, target, columns, raw, (await prepare(conn)).firstId));
      if (loaded !== null) return loaded;
    }
    return this.inTransaction(async (conn) => {
      const { names, firstId } = await prepare(conn);
      // The appender fills columns in table order: the file's columns must be in that order too.
      const order = columns.map((c) => names.indexOf(c.name));
      return appendRows(
        conn,
        target,
        offsetsInUtc(rows, columns),
        firstId,
        order.every((p, i) => p === i + (firstId === null ? 0 : 1)) ? null : order,
      );
    });
  }

  async drop(target: TableTarget): Promise<void> {
    await this.inTransaction((conn) => conn.run(`DROP TABLE IF EXISTS ${qualified(target)}`));
  }

  async close(): Promise<void> {}

  /**
   * The work in one transaction on an instance allowed to read the uploaded file and nothing else; null when it
   * failed or declined (all rolled back: the caller then loads through the appender, which gives the same result or
   * the error it always gave).
   */
  private async fromFile(raw: RawCsv, work: (conn: DuckDBConnection) => Promise<number | null>): Promise<number | null> {
    try {
      return await this.inTransaction(work, raw.file);
    } catch {
      return null;
    }
  }

  /**
   * `readable`: the one file (the server's temporary copy of an upload, never a name the client chose) this instance
   * may read. External access stays off otherwise, and the configuration is locked before any work runs.
   */
  private async inTransaction<T>(work: (conn: DuckDBConnection) => Promise<T>, readable?: string): Promise<T> {
    const { memoryLimit, threads } = this.limits;
    const { enable_external_access: _access, lock_configuration: _lock, ...config } = DUCKDB_LOCKED_CONFIG;
    const instance = await DuckDBInstance.create(this.details.db, {
      ...config,
      access_mode: 'READ_WRITE',
      ...(memoryLimit ? { memory_limit: memoryLimit } : {}),
      ...(threads ? { threads: String(threads) } : {}),
    });
    const conn = await instance.connect();
    try {
      // A list setting cannot be given when the instance is made; set before access is turned off and all is locked.
      if (readable) await conn.run(`SET allowed_paths = [${sqlString(readable)}]`);
      await conn.run('SET enable_external_access = false');
      await conn.run('SET lock_configuration = true');
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

async function columnNames(conn: DuckDBConnection, target: TableTarget): Promise<string[]> {
  const reader = await conn.runAndReadAll(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [target.schema ?? 'main', target.table],
  );
  return reader.getRows().map((r) => String(r[0]));
}

/** A server-made path as an SQL string literal (it is no user value, and is quoted all the same). */
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The uploaded file read by DuckDB: every value as text (columns named c0, c1, ... so no name of the file's is in
 * the statement), then normalized in SQL as normalizeValue does it (spaces around typed values trimmed, blank values
 * null, booleans mapped) and cast as the appender casts text. A generated key numbers the rows in file order from
 * `firstId` (DuckDB keeps the scan's order for a window without one). The path and first id are bound parameters;
 * the delimiter and encoding literals of a fixed set. DuckDB skips empty lines as the splitter does. What DuckDB reads
 * more strictly than the splitter (a quote inside a quoted value) fails here, and the caller falls back to the appender.
 */
async function insertFile(
  conn: DuckDBConnection,
  target: TableTarget,
  columns: UploadColumn[],
  raw: RawCsv,
  firstId: number | null,
): Promise<number> {
  const delimiter = raw.delimiter === ';' ? "';'" : raw.delimiter === '\t' ? "'\t'" : "','";
  const encoding = raw.encoding === 'latin1' ? "'latin-1'" : "'utf-8'";
  const fields = columns.map((_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const values = columns.map((c, i) => {
    const value = `NULLIF(trim(c${i}), '')`;
    if (c.type === 'text') return `CASE WHEN ${value} IS NULL THEN NULL ELSE c${i} END`;
    if (c.type === 'boolean') return `lower(${value}) IN ('true', 'yes', 't', 'y')`;
    return `CAST(${value} AS ${TYPES[c.type]})`;
  });
  const names = columns.map((c) => ident(c.name));
  if (firstId !== null) {
    names.unshift(ident(ROW_ID));
    values.unshift('CAST($2 AS BIGINT) - 1 + row_number() OVER ()');
  }
  const source =
    `read_csv($1, header = true, auto_detect = false, delim = ${delimiter}, quote = '"', escape = '"',` +
    ` encoding = ${encoding}, columns = {${fields}})`;
  const params = firstId === null ? [raw.file] : [raw.file, firstId];
  const result = await conn.run(
    `INSERT INTO ${qualified(target)} (${names.join(', ')}) SELECT ${values.join(', ')} FROM ${source}`,
    params,
  );
  return Number(result.rowsChanged);
}

async function appendRows(
  conn: DuckDBConnection,
  target: TableTarget,
  rows: RowBatches,
  firstId: number | null,
  order: number[] | null = null,
): Promise<number> {
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
