import type { UploadType } from '../column-types';

export interface UploadColumn {
  name: string;
  type: UploadType;
}

/** Where an upload's table lives: `schema` is null on MySQL (the connected database). */
export interface TableTarget {
  schema: string | null;
  table: string;
}

/** Rows of normalized values (see normalizeValue), in the columns' order, a batch at a time. */
export type RowBatches = AsyncIterable<Array<Array<string | null>>>;

/** The file itself, for a loader that can hand it to the database unparsed. */
export interface RawCsv {
  file: string;
  encoding: 'utf-8' | 'latin1';
  skipBytes: number;
  delimiter: string;
  /** Its values need no normalizing (no spaces around typed values, no empty lines: see CsvAnalysis.tidy). */
  tidy: boolean;
}

/**
 * Writes uploaded rows into one warehouse, each call in one transaction (or, where DDL is not transactional, with
 * the table dropped again on failure), so a file that fails half-way leaves nothing behind. Values are data
 * (COPY streams, bound parameters, an appender), never SQL text; identifiers are sanitized and quoted.
 */
export interface BulkLoader {
  /** Creates the table (with `pk` as key, or a generated ROW_ID key when null) and loads the rows; answers the count. */
  create(target: TableTarget, columns: UploadColumn[], pk: string | null, rows: RowBatches, raw?: RawCsv): Promise<number>;
  /** Adds rows to an existing table, after deleting every row first when `replace`. */
  append(target: TableTarget, columns: UploadColumn[], rows: RowBatches, replace: boolean, raw?: RawCsv): Promise<number>;
  drop(target: TableTarget): Promise<void>;
  close(): Promise<void>;
}

/** A value the warehouse would not take (the file's fault, answered as a 400). */
export class RowRejectedError extends Error {}
