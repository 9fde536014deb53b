import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { ServerDetails } from '../../query-engine/execute/drivers/details';
import { connectMysql } from '../../query-engine/execute/drivers/mysql-options';
import type { Row } from '../generate';
import { SAMPLE_TABLES, createTableSql, dateText, quoteIdent, timestampText, type SampleTable } from '../schema';
import { SampleTablesExistError, type SampleCounts, type SampleSink } from './sink';

/** Rows per INSERT: 13 columns x 1,000 rows stays well under the 65,535 placeholders of a prepared statement. */
const ROWS_PER_STATEMENT = 1000;
const q = (name: string) => quoteIdent('mysql', name);

/** Multi-row INSERTs through server-side prepared statements, one transaction per batch. */
export class MysqlSink implements SampleSink {
  private conn?: Connection;

  constructor(private readonly details: ServerDetails) {}

  async begin(replace: boolean): Promise<void> {
    this.conn = await connectMysql(this.details);
    const names = SAMPLE_TABLES.map((t) => t.name);
    const [existing] = await this.conn.execute<RowDataPacket[]>(
      'SELECT TABLE_NAME AS name FROM information_schema.TABLES' +
        ` WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (${names.map(() => '?').join(', ')})`,
      names,
    );
    if (existing.length) {
      if (!replace) throw new SampleTablesExistError(existing.map((r) => String(r.name)));
      for (const t of [...SAMPLE_TABLES].reverse()) await this.conn.query(`DROP TABLE IF EXISTS ${q(t.name)}`);
    }
    for (const table of SAMPLE_TABLES) await this.conn.query(`${createTableSql('mysql', table)} DEFAULT CHARSET = utf8mb4`);
  }

  async insert(table: SampleTable, rows: Row[]): Promise<void> {
    const conn = this.conn!;
    const kinds = table.columns.map((c) => c.kind);
    const tuple = `(${table.columns.map(() => '?').join(', ')})`;
    await conn.query('START TRANSACTION');
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
      const values: (string | number | null)[] = [];
      for (const row of chunk) {
        row.forEach((v, i) =>
          values.push(
            v === null ? null : kinds[i] === 'timestamp' ? timestampText(v as number) : kinds[i] === 'date' ? dateText(v as number) : v,
          ),
        );
      }
      await conn.execute(`INSERT INTO ${q(table.name)} VALUES ${chunk.map(() => tuple).join(', ')}`, values);
    }
    await conn.query('COMMIT');
  }

  async finish(): Promise<SampleCounts> {
    const counts = {} as SampleCounts;
    for (const t of SAMPLE_TABLES) {
      const [rows] = await this.conn!.query<RowDataPacket[]>(`SELECT COUNT(*) AS n FROM ${q(t.name)}`);
      counts[t.name] = Number(rows[0].n);
    }
    await this.abort();
    return counts;
  }

  async abort(): Promise<void> {
    this.conn?.destroy();
    this.conn = undefined;
  }
}
