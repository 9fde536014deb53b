import { MessageError } from '../../common/errors/api-errors';
import { MAX_UPLOAD_COLUMNS } from './upload-limits';

const QUOTE = 34;
const CR = 13;
const LF = 10;

/**
 * A streaming RFC 4180 parser: text goes in chunk by chunk, complete records come out; a record cut by the chunk's
 * end waits for the next chunk. Quoted fields may hold delimiters, doubled quotes and newlines; empty lines are
 * skipped; every record must have as many fields as the first (the header), or the error names its line.
 * Hand-written because the general-purpose parser (csv-parse) ran at under 50,000 rows/s here, far from the
 * upload target; this one does the one thing uploads need.
 *
 * Records come out either as arrays of strings (push/end) or, for the typing pass, as positions in the text
 * (visit/finish: no string is made for an unquoted value, which spares the garbage collector most of its work).
 * The header may have at most `maxFields` values: a wider one is refused as soon as its width passes that (a data
 * row, as soon as it passes the header's), before its values are all held.
 */
/**
 * One record as positions: field k is text[starts[k], ends[k]) unless quoted[k] holds its unescaped value (a quoted
 * field). The arrays are reused for the next record: read them during the call only.
 */
export type RecordVisitor = (text: string, count: number, starts: Int32Array, ends: Int32Array, quoted: Array<string | undefined>) => void;

export class CsvSplitter {
  private rest = '';
  /** The length `rest` had when it was last scanned (and found to hold no complete record). */
  private scanned = 0;
  /** The line (1-based) where `rest` starts. */
  private line = 1;
  /** The line where the record being split starts (for an error found while its values are collected). */
  private recordLine = 1;
  private width = -1;
  /** Empty lines skipped so far (the raw COPY path of Postgres could not skip them). */
  emptyLines = 0;
  private readonly delim: number;
  private starts = new Int32Array(64);
  private ends = new Int32Array(64);
  private readonly quoted: Array<string | undefined> = [];

  constructor(
    delimiter: string,
    private readonly maxFields = MAX_UPLOAD_COLUMNS,
  ) {
    this.delim = delimiter.charCodeAt(0);
  }

  /** The records completed by this chunk. */
  push(chunk: string): string[][] {
    const out: string[][] = [];
    const text = this.take(chunk);
    if (text !== null) this.split(text, false, toStrings(out));
    return out;
  }

  /** The last record (a file need not end with a newline). */
  end(): string[][] {
    const out: string[][] = [];
    this.split(this.rest, true, toStrings(out));
    return out;
  }

  /** Like push, the records as positions; answers how many. */
  visit(chunk: string, visitor: RecordVisitor): number {
    const text = this.take(chunk);
    return text === null ? 0 : this.split(text, false, visitor);
  }

  /** Like end, the last record as positions. */
  finish(visitor: RecordVisitor): number {
    return this.split(this.rest, true, visitor);
  }

  /**
   * The text to split next, or null to wait for more: a record longer than a chunk is scanned again from its start
   * once the text past it has grown to its length (not on every chunk, which was quadratic in the record's length).
   */
  private take(chunk: string): string | null {
    const text = this.rest + chunk;
    if (text.length >= 2 * this.scanned) return text;
    this.rest = text;
    return null;
  }

  private field(k: number, start: number, end: number, quoted: string | undefined): void {
    if (k >= this.starts.length) {
      // The arrays were grown to the header's width: past it, this row is too wide (checked only on growth, which is rare).
      if (this.width >= 0 || k >= this.maxFields) throw this.tooWide(this.recordLine);
      const starts = new Int32Array(this.starts.length * 2);
      const ends = new Int32Array(this.ends.length * 2);
      starts.set(this.starts);
      ends.set(this.ends);
      this.starts = starts;
      this.ends = ends;
    }
    this.starts[k] = start;
    this.ends[k] = end;
    this.quoted[k] = quoted;
  }

  private split(text: string, final: boolean, visitor: RecordVisitor): number {
    let records = 0;
    const n = text.length;
    const d = this.delim;
    let i = 0;
    let line = this.line;
    for (;;) {
      const start = i;
      const startLine = line;
      if (i >= n) break;
      this.recordLine = startLine;
      let count = 0;
      let complete = false;
      for (;;) {
        if (text.charCodeAt(i) === QUOTE) {
          let value = '';
          let j = i + 1;
          let closed = -1;
          for (;;) {
            const k = text.indexOf('"', j);
            if (k < 0) break;
            value += text.slice(j, k);
            if (text.charCodeAt(k + 1) === QUOTE) {
              value += '"';
              j = k + 2;
              continue;
            }
            if (k + 1 >= n && !final) break; // the next chunk may start with the second quote of a pair
            closed = k;
            break;
          }
          if (closed < 0) {
            if (final) throw new MessageError(`The CSV file could not be read at line ${startLine}: a quoted value is never closed.`);
            break;
          }
          line += countNewlines(text, i, closed);
          this.field(count++, i, closed + 1, value);
          i = closed + 1;
          const c = text.charCodeAt(i);
          if (c === d) {
            i++;
            continue;
          }
          if (i >= n) {
            if (final) complete = true;
            break;
          }
          if (c === LF || c === CR) {
            i = this.lineEnd(text, i, final);
            if (i < 0) break;
            line++;
            complete = true;
            break;
          }
          throw new MessageError(`The CSV file could not be read at line ${line}: a quoted value is followed by more text.`);
        }
        let j = i;
        let c = 0;
        while (j < n && (c = text.charCodeAt(j)) !== d && c !== LF && c !== CR) j++;
        if (j >= n) {
          if (final) {
            this.field(count++, i, j, undefined);
            i = j;
            complete = true;
          }
          break;
        }
        this.field(count++, i, j, undefined);
        if (c === d) {
          i = j + 1;
          continue;
        }
        i = this.lineEnd(text, j, final);
        if (i < 0) break;
        line++;
        complete = true;
        break;
      }
      if (!complete) {
        i = start;
        line = startLine;
        break;
      }
      if (count === 1 && (this.quoted[0] === undefined ? this.starts[0] === this.ends[0] : this.quoted[0] === '')) {
        this.emptyLines++; // an empty line
        continue;
      }
      if (this.width < 0) {
        if (count > this.maxFields) throw this.tooWide(startLine);
        this.width = count;
      } else if (count !== this.width) throw new MessageError(`Row ${startLine} has a different number of values than the header row.`);
      visitor(text, count, this.starts, this.ends, this.quoted);
      records++;
    }
    this.rest = text.slice(i);
    this.scanned = this.rest.length;
    this.line = line;
    return records;
  }

  private tooWide(line: number): MessageError {
    if (this.width >= 0) return new MessageError(`Row ${line} has a different number of values than the header row.`);
    const max = this.maxFields.toLocaleString('en-US');
    return new MessageError(`The CSV file has more than ${max} columns: an upload may have at most ${max} columns.`);
  }

  /** Past a line end at `i` (LF, CRLF or CR); -1 when a CR ends the chunk and its LF may follow in the next. */
  private lineEnd(text: string, i: number, final: boolean): number {
    if (text.charCodeAt(i) === LF) return i + 1;
    if (i + 1 >= text.length) return final ? i + 1 : -1;
    return text.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
  }
}

/** A visitor that collects each record as an array of strings. */
function toStrings(out: string[][]): RecordVisitor {
  return (text, count, starts, ends, quoted) => {
    const fields: string[] = new Array(count);
    for (let k = 0; k < count; k++) fields[k] = quoted[k] ?? text.slice(starts[k], ends[k]);
    out.push(fields);
  };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = text.indexOf('\n', from); k >= 0 && k < to; k = text.indexOf('\n', k + 1)) n++;
  return n;
}
