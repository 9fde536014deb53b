import * as fs from 'node:fs';
import { Transform, TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { CsvError, parse } from 'csv-parse';
import { MessageError } from '../../common/errors/api-errors';
import { CsvEncoding, CsvFormat, detectDelimiter, detectEncoding, unsupportedEncoding } from './csv-format';

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

/** Bytes to text; UTF-8 strictly, so a file that is not UTF-8 after all is noticed (and read again as Latin-1). */
class Decode extends Transform {
  private readonly decoder: TextDecoder;
  constructor(encoding: CsvEncoding) {
    super({ readableObjectMode: false, decodeStrings: true });
    this.decoder = new TextDecoder(encoding, { fatal: encoding === 'utf-8' });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      done(null, this.decoder.decode(chunk, { stream: true }));
    } catch {
      done(new NotUtf8Error());
    }
  }
  override _flush(done: TransformCallback): void {
    try {
      done(null, this.decoder.decode());
    } catch {
      done(new NotUtf8Error());
    }
  }
}

export class NotUtf8Error extends Error {}

/**
 * The file's header and then its rows in batches, parsed as a stream (a large file is never one string). Every row
 * must have as many values as the header: the first one that does not is named by its line.
 */
export async function* readCsv(file: string, format: CsvFormat): AsyncGenerator<string[][], void, undefined> {
  const source = fs.createReadStream(file, { start: format.skipBytes, highWaterMark: 1024 * 1024 });
  const parser = parse({ delimiter: format.delimiter, skip_empty_lines: true, relax_quotes: false, bom: false });
  const decode = new Decode(format.encoding);
  source.on('error', (e) => parser.destroy(e));
  decode.on('error', (e) => parser.destroy(e));
  source.pipe(decode).pipe(parser);
  let batch: string[][] = [];
  try {
    for await (const row of parser as AsyncIterable<string[]>) {
      batch.push(row);
      if (batch.length >= BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  } catch (e) {
    throw readError(e, format);
  } finally {
    source.destroy();
    decode.destroy();
    parser.destroy();
  }
}

function readError(e: unknown, format: CsvFormat): Error {
  if (e instanceof NotUtf8Error) return format.encoding === 'utf-8' && format.skipBytes === 0 ? e : unsupportedEncoding();
  if (e instanceof CsvError) {
    const line = (e as CsvError & { lines?: number }).lines;
    if (e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH') {
      return new MessageError(`Row ${line} has a different number of values than the header row.`);
    }
    return new MessageError(`The CSV file could not be read at line ${line}: ${e.message.replace(/\s+at line \d+.*$/, '')}`);
  }
  return e as Error;
}
