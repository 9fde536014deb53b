import Database from 'better-sqlite3';
import type { Row } from '../generate';
import { SAMPLE_TABLES, createTableSql, dateText, quoteIdent, timestampText, type SampleTable } from '../schema';
import type { SampleCounts, SampleSink } from './sink';

/** Marks a file as written by this generator version (PRAGMA user_version); a change regenerates it. */
export const SAMPLE_FORMAT_VERSION = 1;

/**
 * Writes into a fresh file (the caller renames it into place), so durability settings can be off during the
 * load: a crash leaves only a temp file behind.
 */
export class SqliteSink implements SampleSink {
  private readonly db: Database.Database;
  private readonly inserts = new Map<string, Database.Statement>();

  constructor(file: string) {
    this.db = new Database(file);
  }

  async begin(): Promise<void> {
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    for (const table of SAMPLE_TABLES) this.db.exec(createTableSql('sqlite', table));
    this.db.exec('BEGIN');
  }

  async insert(table: SampleTable, rows: Row[]): Promise<void> {
    let stmt = this.inserts.get(table.name);
    if (!stmt) {
      stmt = this.db.prepare(`INSERT INTO ${quoteIdent('sqlite', table.name)} VALUES (${table.columns.map(() => '?').join(', ')})`);
      this.inserts.set(table.name, stmt);
    }
    const kinds = table.columns.map((c) => c.kind);
    for (const row of rows) {
      stmt.run(
        row.map((v, i) =>
          v === null ? null : kinds[i] === 'timestamp' ? timestampText(v as number) : kinds[i] === 'date' ? dateText(v as number) : v,
        ),
      );
    }
  }

  async finish(): Promise<SampleCounts> {
    this.db.exec('COMMIT');
    this.db.pragma(`user_version = ${SAMPLE_FORMAT_VERSION}`);
    this.db.pragma('journal_mode = DELETE');
    const counts = {} as SampleCounts;
    for (const t of SAMPLE_TABLES) {
      counts[t.name] = (this.db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent('sqlite', t.name)}`).get() as { n: number }).n;
    }
    this.db.close();
    return counts;
  }

  async abort(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
