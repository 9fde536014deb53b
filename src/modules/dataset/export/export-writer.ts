import type { Writable } from 'node:stream';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import type { ColumnSettings } from './column-format';

/** Writes one file format to a stream, batch by batch; each call resolves false once the client has gone. */
export interface ExportWriter {
  begin(titles: string[]): Promise<boolean>;
  write(rows: unknown[][]): Promise<boolean>;
  /**
   * Ends a file whose rows stopped early (the query failed after the first rows): it ends with `message`, where a
   * reader of that format sees it (see each writer), so that no truncated file looks complete.
   */
  incomplete(message: string): Promise<void>;
  end(): Promise<void>;
}

export { endStream, waitForDrain, writeChunk } from '../../../common/http/backpressure';

export interface ExportWriterOptions {
  out: Writable;
  /** The exported columns, in file order (rows come in that order too). */
  cols: CompiledColumn[];
  formatRows: boolean;
  /** Each column's `column_settings` (see column-format.ts); absent: none. */
  settings?: ColumnSettings[];
}
