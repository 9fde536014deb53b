import * as fs from 'node:fs';
import { TextDecoder } from 'node:util';
import { MessageError } from '../../common/errors/api-errors';
import { CsvSplitter, type RecordVisitor } from './csv-splitter';
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
export async function* readCsv(
  file: string,
  format: CsvFormat,
  stats?: { emptyLines: number },
): AsyncGenerator<string[][], void, undefined> {
  const source = fs.createReadStream(file, { start: format.skipBytes, highWaterMark: 1024 * 1024 });
  const decode = decoderFor(format);
  const splitter = new CsvSplitter(format.delimiter);
  let batch: string[][] = [];
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

/**
 * Every record of the file (header first) handed to `visitor` as positions in the text, for the typing pass: no
 * string per value. Answers the records and the empty lines skipped.
 */
export async function visitCsv(file: string, format: CsvFormat, visitor: RecordVisitor): Promise<{ records: number; emptyLines: number }> {
  const source = fs.createReadStream(file, { start: format.skipBytes, highWaterMark: 1024 * 1024 });
  const decode = decoderFor(format);
  const splitter = new CsvSplitter(format.delimiter);
  let records = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) records += splitter.visit(decode(chunk), visitor);
    records += splitter.visit(decode(), visitor);
    records += splitter.finish(visitor);
    return { records, emptyLines: splitter.emptyLines };
  } finally {
    source.destroy();
  }
}

/** Bytes to text in the file's encoding; UTF-8 strictly, so a file that is not UTF-8 after all is noticed (and read again as Latin-1). */
function decoderFor(format: CsvFormat): (chunk?: Buffer) => string {
  const decoder = new TextDecoder(format.encoding, { fatal: format.encoding === 'utf-8' });
  return (chunk?: Buffer): string => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw format.encoding === 'utf-8' && format.skipBytes === 0 ? new NotUtf8Error() : unsupportedEncoding();
    }
  };
}
