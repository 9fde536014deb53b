import { MessageError } from '../../common/errors/api-errors';

/** How a file's bytes become text: UTF-8 (its BOM, if any, skipped) or Latin-1. */
export type CsvEncoding = 'utf-8' | 'latin1';
export type CsvDelimiter = ',' | ';' | '\t';

export interface CsvFormat {
  encoding: CsvEncoding;
  /** Bytes to skip at the start (a UTF-8 byte order mark). */
  skipBytes: number;
  delimiter: CsvDelimiter;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The encoding of a file from its first bytes: a UTF-8 BOM, else valid UTF-8, else Latin-1. Bytes Latin-1 leaves
 * unused (C0 controls other than tab/CR/LF, NUL, the byte order marks of UTF-16/32) mean some other encoding, refused.
 * `complete` is false when the sample stops mid-file, where a multi-byte character may be cut at its end.
 */
export function detectEncoding(sample: Buffer, complete: boolean): { encoding: CsvEncoding; skipBytes: number } {
  if (sample.length >= 3 && UTF8_BOM.every((b, i) => sample[i] === b)) return { encoding: 'utf-8', skipBytes: 3 };
  if (sample.length >= 2 && ((sample[0] === 0xff && sample[1] === 0xfe) || (sample[0] === 0xfe && sample[1] === 0xff)))
    throw unsupportedEncoding();
  for (const b of sample) {
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) throw unsupportedEncoding();
  }
  return { encoding: validUtf8(complete ? sample : trimPartialChar(sample)) ? 'utf-8' : 'latin1', skipBytes: 0 };
}

export function unsupportedEncoding(): MessageError {
  return new MessageError('Unsupported file encoding: upload a CSV file in UTF-8 (with or without a byte order mark) or Latin-1.');
}

function validUtf8(bytes: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Drops a multi-byte UTF-8 sequence the sample cut short, so a cut is not mistaken for invalid UTF-8. */
function trimPartialChar(bytes: Buffer): Buffer {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 4 && (bytes[i] & 0xc0) === 0x80) {
    i--;
    back++;
  }
  if (i < 0 || bytes[i] < 0xc0) return bytes;
  const need = bytes[i] >= 0xf0 ? 4 : bytes[i] >= 0xe0 ? 3 : 2;
  return back + 1 < need ? bytes.subarray(0, i) : bytes;
}

/**
 * The delimiter among comma, semicolon and tab: the one that splits the first lines (outside quotes) into the same
 * number of fields, more than one, most often; the header line decides a tie. Comma when nothing splits.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const lines = firstLines(text, 20);
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const d of [',', ';', '\t'] as const) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    if (counts.length === 0 || counts[0] === 0) continue;
    const consistent = counts.filter((c) => c === counts[0]).length;
    const score = consistent * 1000 + counts[0];
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** Up to n non-empty lines; a quoted field may span lines (its newline stays inside the line). */
function firstLines(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length && out.length < n; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\n' && !quoted) {
      const line = text.slice(start, i).replace(/\r$/, '');
      if (line.trim() !== '') out.push(line);
      start = i + 1;
    }
  }
  // The last line counts only when the sample is not cut inside it (no lines at all: take what there is).
  if (out.length === 0 && text.slice(start).trim() !== '') out.push(text.slice(start));
  return out;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let quoted = false;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === d && !quoted) n++;
  }
  return n;
}
