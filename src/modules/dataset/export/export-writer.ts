import type { Writable } from 'node:stream';
import type { CompiledColumn } from '../../../query-engine/compile/contract';

/** Writes one file format to a stream, batch by batch; each call resolves false once the client has gone. */
export interface ExportWriter {
  begin(titles: string[]): Promise<boolean>;
  write(rows: unknown[][]): Promise<boolean>;
  end(): Promise<void>;
}

export { endStream, waitForDrain, writeChunk } from '../../../common/http/backpressure';

export interface ExportWriterOptions {
  out: Writable;
  cols: CompiledColumn[];
  formatRows: boolean;
}
