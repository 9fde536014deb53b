import { stringify, type Options } from 'csv-stringify/sync';
import { BufferedOutput } from '../../../common/http/buffered-output';
import { formatValue } from './format-value';
import type { ExportWriter, ExportWriterOptions } from './export-writer';

/**
 * CSV per RFC 4180: a header row of titles, then the rows; null is empty. A batch is one string, written at once.
 * Fields that need quoting, and values that are not plain strings, numbers or booleans, are csv-stringify's; the
 * others are written as they are, as csv-stringify writes them (see csvField).
 * Text a spreadsheet would read as a formula gets a leading `'` (OWASP's CSV-injection advice); numbers, dates
 * and booleans are written as they are, even when formatting turns them into text starting with `-`. With
 * `format_rows`, values are text as the column settings say (`1,234.50`, `May 1, 2024`), see format-value.ts.
 */
export class CsvWriter implements ExportWriter {
  /** Each batch's text is encoded into reused buffers (see BufferedOutput), not handed to the socket as a string. */
  private readonly output: BufferedOutput;

  constructor(private readonly opts: ExportWriterOptions) {
    this.output = new BufferedOutput(opts.out);
  }

  begin(titles: string[]): Promise<boolean> {
    return this.output.write(toCsv([titles.map(defuseFormula)]));
  }

  write(rows: unknown[][]): Promise<boolean> {
    const { cols, formatRows } = this.opts;
    const settings = this.opts.settings ?? [];
    let text = '';
    for (const row of rows) {
      for (let i = 0; i < row.length; i++) {
        const v = row[i];
        if (i > 0) text += ',';
        if (v === null || v === undefined) continue;
        text += csvField(formatRows ? defused(formatValue(v, cols[i], true, settings[i]), v) : defused(v, v));
      }
      text += '\n';
    }
    return this.output.write(text);
  }

  /** A last record of one field: the message (a CSV has no other place for it). */
  async incomplete(message: string): Promise<void> {
    if (await this.output.write(toCsv([[defuseFormula(message)]]))) await this.end();
  }

  end(): Promise<void> {
    return this.output.end();
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** What makes csv-stringify (its default options) quote a field: the delimiter, the quote, a line break. */
const NEEDS_QUOTES = /[",\n\r]/;
const STRINGIFY_OPTIONS: Options = {
  cast: {
    // csv-stringify writes `1` and an empty field for booleans by default.
    boolean: (v) => String(v),
    object: (v) => JSON.stringify(v),
  },
};

/** A value as written: text defused (a formatted number may start with `-`; a `prefix` setting with anything else). */
function defused(out: unknown, raw: unknown): unknown {
  if (typeof out !== 'string') return out;
  return typeof raw === 'string' || !out.startsWith('-') ? defuseFormula(out) : out;
}

/**
 * One field: numbers, booleans and strings that need no quoting as they are (what csv-stringify writes for them,
 * without its cost per field: it made CSV downloads slower than the 150,000 rows/s of the issue by itself);
 * the rest through csv-stringify.
 */
export function csvField(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string' && !NEEDS_QUOTES.test(v)) return v;
  if (v === null || v === undefined) return '';
  return toCsv([[v]]).slice(0, -1);
}

/** `'=1+1` is shown as the text `=1+1` by Excel, LibreOffice and Google Sheets instead of being evaluated. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function toCsv(records: unknown[][]): string {
  return stringify(records, STRINGIFY_OPTIONS);
}
