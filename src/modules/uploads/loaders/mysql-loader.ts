import type { Connection } from 'mysql2/promise';
import type { ServerDetails } from '../../../query-engine/execute/drivers';
import { connectMysql } from '../../../query-engine/execute/drivers/mysql-options';
import { ROW_ID, type UploadType } from '../column-types';
import type { BulkLoader, RowBatches, TableTarget, UploadColumn } from './bulk-loader';

const TYPES: Record<UploadType, string> = {
  int: 'INT',
  bigint: 'BIGINT',
  float: 'DOUBLE',
  boolean: 'BOOLEAN',
  date: 'DATE',
  datetime: 'DATETIME(6)',
  'offset-datetime': 'TIMESTAMP(6) NULL',
  text: 'TEXT',
};

/** Placeholders per statement stay well below MySQL's 65,535. */
const MAX_PARAMS = 60_000;

const ident = (name: string) => `\`${name.replace(/`/g, '``')}\``;
const qualified = (t: TableTarget) => (t.schema ? `${ident(t.schema)}.${ident(t.table)}` : ident(t.table));

/**
 * MySQL/MariaDB: CREATE TABLE commits implicitly, so the table is made first and dropped again when loading the
 * rows (one InnoDB transaction of multi-row INSERTs with bound parameters) fails.
 */
export class MysqlLoader implements BulkLoader {
  constructor(private readonly details: ServerDetails) {}

  async create(target: TableTarget, columns: UploadColumn[], pk: string | null, rows: RowBatches): Promise<number> {
    const defs = columns.map((c) => `${ident(c.name)} ${TYPES[c.type]}${c.name === pk ? ' PRIMARY KEY' : ''}`);
    if (pk === null) defs.unshift(`${ident(ROW_ID)} INT AUTO_INCREMENT PRIMARY KEY`);
    return this.withConnection(async (conn) => {
      await conn.query(`CREATE TABLE ${qualified(target)} (${defs.join(', ')}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`);
      try {
        return await inTransaction(conn, () => insertRows(conn, target, columns, rows));
      } catch (e) {
        await conn.query(`DROP TABLE IF EXISTS ${qualified(target)}`).catch(() => undefined);
        throw e;
      }
    });
  }

  async append(target: TableTarget, columns: UploadColumn[], rows: RowBatches, replace: boolean): Promise<number> {
    return this.withConnection((conn) =>
      inTransaction(conn, async () => {
        if (replace) await conn.query(`DELETE FROM ${qualified(target)}`);
        return insertRows(conn, target, columns, rows);
      }),
    );
  }

  async drop(target: TableTarget): Promise<void> {
    await this.withConnection((conn) => conn.query(`DROP TABLE IF EXISTS ${qualified(target)}`));
  }

  async close(): Promise<void> {}

  private async withConnection<T>(work: (conn: Connection) => Promise<T>): Promise<T> {
    const conn = await connectMysql(this.details);
    conn.on('error', () => undefined);
    try {
      await conn.query("SET time_zone = '+00:00'");
      return await work(conn);
    } finally {
      conn.destroy();
    }
  }
}

async function inTransaction<T>(conn: Connection, work: () => Promise<T>): Promise<T> {
  await conn.beginTransaction();
  try {
    const result = await work();
    await conn.commit();
    return result;
  } catch (e) {
    await conn.rollback().catch(() => undefined);
    throw e;
  }
}

async function insertRows(conn: Connection, target: TableTarget, columns: UploadColumn[], rows: RowBatches): Promise<number> {
  const list = columns.map((c) => ident(c.name)).join(', ');
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const convert = columns.map((c) => converter(c.type));
  let count = 0;
  for await (const batch of rows) {
    for (let start = 0; start < batch.length; start += perStatement) {
      const part = batch.slice(start, start + perStatement);
      const params: Array<string | number | null> = [];
      for (const row of part) for (let i = 0; i < row.length; i++) params.push(row[i] === null ? null : convert[i](row[i] as string));
      // query() (client-side binding with escaping) rather than execute(): a prepared statement per batch size
      // would fill the server's statement cache; the values are still escaped as data, never spliced raw.
      await conn.query(`INSERT INTO ${qualified(target)} (${list}) VALUES ${Array(part.length).fill(tuple).join(', ')}`, params);
    }
    count += batch.length;
  }
  return count;
}

/** MySQL has no ISO-8601 `T` nor offsets in its datetime literals: offsets become UTC, booleans 1/0. */
function converter(type: UploadType): (v: string) => string | number {
  if (type === 'boolean') return (v) => (v === 'true' ? 1 : 0);
  if (type === 'datetime') return (v) => v.replace('T', ' ');
  if (type === 'offset-datetime') return (v) => new Date(v.replace(' ', 'T')).toISOString().replace('T', ' ').replace('Z', '');
  return (v) => v;
}
