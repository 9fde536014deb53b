import type { Row } from '../generate';
import type { SampleTable } from '../schema';

export type SampleCounts = Record<SampleTable['name'], number>;

/** Where the generated rows go: one implementation per engine. */
export interface SampleSink {
  /** Refuses existing sample tables unless `replace`, then creates the tables. */
  begin(replace: boolean): Promise<void>;
  insert(table: SampleTable, rows: Row[]): Promise<void>;
  /** Commits and returns the row counts read back from the database. */
  finish(): Promise<SampleCounts>;
  /** Releases connections after a failure. */
  abort(): Promise<void>;
}

export class SampleTablesExistError extends Error {
  constructor(tables: string[]) {
    super(`The database already has ${tables.join(', ')}; pass --replace to drop and rewrite the sample tables.`);
  }
}
