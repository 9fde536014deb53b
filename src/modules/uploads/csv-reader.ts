import * as fs from 'node:fs';
import { TextDecoder } from 'node:util';
import { MessageError } from '../../common/errors/api-errors';
import { CsvSplitter } from './csv-splitter';
import { CsvFormat, detectDelimiter, detectEncoding, unsupportedEncoding } from './csv-format';

const SAMPLE_BYTES = 64 * 1024;
/** Rows handed on at a time: large enough that per-batch costs (a statement, an await) vanish. */
export const BATCH_ROWS = 5000;

/** The encoding and delimiter of a file, from its first 64 KiB. */
export async function sniffFormat(file: string): Promise<CsvFormat> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buf = Buffer.alloc(SAMPLE_BYTES);
    const { bytesRead } = await handle.read(buf, 0, SAMPLE_BYTES, 0);
    const sample = buf.subarray(0, bytesRead);
    const size = (await handle.stat()).size;
    if (sample.toString('latin1').trim() === '') throw new MessageError('The CSV file is empty.');
    const { encoding, skipBytes } = detectEncoding(sample, bytesRead === size);
    const text = new TextDecoder(encoding).decode(sample.subarray(skipBytes));
    return { encoding, skipBytes, delimiter: detectDelimiter(text) };
  } finally {
    await handle.close();
  }
}

export class NotUtf8Error extends Error {}

/**
 * The file's header and then its rows in batches, read as a stream (a large file is never one string). Every row
 * must have as many values as the header: the first one that does not is named by its line.
 */
export async function* readCsv(file: string, format: CsvFormat, stats?: { emptyLines: number }): AsyncGenerator<string[][], void, undefined> {
  const source = fs.createReadStream(file, { start: format.skipBytes, highWaterMark: 1024 * 1024 });
  // UTF-8 strictly, so a file that is not UTF-8 after all is noticed (and read again as Latin-1).
  const decoder = new TextDecoder(format.encoding, { fatal: format.encoding === 'utf-8' });
  const splitter = new CsvSplitter(format.delimiter);
  let batch: string[][] = [];
  const decode = (chunk?: Buffer): string => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw format.encoding === 'utf-8' && format.skipBytes === 0 ? new NotUtf8Error() : unsupportedEncoding();
    }
  };
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      for (const row of splitter.push(decode(chunk))) batch.push(row);
      if (batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
    for (const row of splitter.push(decode())) batch.push(row);
    for (const row of splitter.end()) batch.push(row);
    if (stats) stats.emptyLines = splitter.emptyLines;
    if (batch.length) yield batch;
  } finally {
    source.destroy();
  }
}
