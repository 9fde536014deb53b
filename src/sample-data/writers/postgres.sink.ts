import { Client } from 'pg';
import type { ServerDetails } from '../../query-engine/execute/drivers/details';
import { postgresClientConfig } from '../../query-engine/execute/drivers/postgres.driver';
import type { Row } from '../generate';
import {
  SAMPLE_TABLES,
  createTableSql,
  dateText,
  foreignKeyClauses,
  quoteIdent,
  timestampText,
  type ColumnKind,
  type SampleTable,
} from '../schema';
import { SampleTablesExistError, type SampleCounts, type SampleSink } from './sink';

const ARRAY_TYPES: Record<ColumnKind, string> = {
  int: 'int4[]',
  bigint: 'int8[]',
  float: 'float8[]',
  text: 'text[]',
  longtext: 'text[]',
  timestamp: 'timestamp[]',
  date: 'date[]',
};

const q = (name: string) => quoteIdent('postgres', name);

/**
 * One INSERT ... SELECT FROM unnest($1::int4[], $2::text[], ...) per batch: every value is bound, and the
 * server parses one statement per 10,000 rows instead of one per row. The whole load is one transaction, so a
 * failure leaves no tables behind.
 */
export class PostgresSink implements SampleSink {
  private readonly client: Client;

  constructor(details: ServerDetails) {
    this.client = new Client(postgresClientConfig(details));
  }

  async begin(replace: boolean): Promise<void> {
    await this.client.connect();
    const existing = await this.client.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)',
      [SAMPLE_TABLES.map((t) => t.name)],
    );
    await this.client.query('BEGIN');
    if (existing.rows.length) {
      if (!replace) throw new SampleTablesExistError(existing.rows.map((r) => r.table_name));
      await this.client.query(
        `DROP TABLE IF EXISTS ${[...SAMPLE_TABLES]
          .reverse()
          .map((t) => q(t.name))
          .join(', ')}`,
      );
    }
    // Foreign keys are added after the load: one validating join instead of a trigger call per row.
    for (const table of SAMPLE_TABLES) await this.client.query(createTableSql('postgres', table, false));
  }

  async insert(table: SampleTable, rows: Row[]): Promise<void> {
    const columns = table.columns.map((c, i) => {
      const convert = c.kind === 'timestamp' ? timestampText : c.kind === 'date' ? dateText : null;
      return rows.map((r) => (r[i] === null || !convert ? r[i] : convert(r[i] as number)));
    });
    const sql =
      `INSERT INTO ${q(table.name)} (${table.columns.map((c) => q(c.name)).join(', ')}) ` +
      `SELECT * FROM unnest(${table.columns.map((c, i) => `$${i + 1}::${ARRAY_TYPES[c.kind]}`).join(', ')})`;
    await this.client.query(sql, columns);
  }

  async finish(): Promise<SampleCounts> {
    for (const table of SAMPLE_TABLES) {
      for (const fk of foreignKeyClauses('postgres', table)) await this.client.query(`ALTER TABLE ${q(table.name)} ADD ${fk}`);
    }
    await this.client.query('COMMIT');
    const counts = {} as SampleCounts;
    for (const t of SAMPLE_TABLES) {
      await this.client.query(`ANALYZE ${q(t.name)}`);
      const r = await this.client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${q(t.name)}`);
      counts[t.name] = Number(r.rows[0].n);
    }
    await this.client.end();
    return counts;
  }

  async abort(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}
