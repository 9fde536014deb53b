import { stringify } from 'csv-stringify/sync';
import { formatValue } from './format-value';
import { endStream, ExportWriter, ExportWriterOptions, writeChunk } from './export-writer';

/**
 * CSV per RFC 4180 (csv-stringify, one call per batch): a header row of titles, then the rows; null is empty.
 * Text a spreadsheet would read as a formula gets a leading `'` (OWASP's CSV-injection advice); numbers, dates
 * and booleans are written as they are, even when formatting turns them into text starting with `-`. With
 * `format_rows`, values are text as the column settings say (`1,234.50`, `May 1, 2024`), see format-value.ts.
 */
export class CsvWriter implements ExportWriter {
  constructor(private readonly opts: ExportWriterOptions) {}

  begin(titles: string[]): Promise<boolean> {
    return writeChunk(this.opts.out, toCsv([titles.map(defuseFormula)]));
  }

  write(rows: unknown[][]): Promise<boolean> {
    const { cols, formatRows } = this.opts;
    const settings = this.opts.settings ?? [];
    const cell = (v: unknown, i: number) => {
      const out = formatValue(v, cols[i], formatRows, settings[i]);
      if (typeof out !== 'string') return out;
      // A formatted number may start with `-`; a `prefix` setting could start with anything else.
      return typeof v === 'string' ? defuseFormula(out) : out.startsWith('-') ? out : defuseFormula(out);
    };
    return writeChunk(this.opts.out, toCsv(rows.map((row) => row.map(cell))));
  }

  /** A last record of one field: the message (a CSV has no other place for it). */
  async incomplete(message: string): Promise<void> {
    if (await writeChunk(this.opts.out, toCsv([[defuseFormula(message)]]))) await this.end();
  }

  end(): Promise<void> {
    return endStream(this.opts.out);
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** `'=1+1` is shown as the text `=1+1` by Excel, LibreOffice and Google Sheets instead of being evaluated. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function toCsv(records: unknown[][]): string {
  return stringify(records, {
    cast: {
      // csv-stringify writes `1` and an empty field for booleans by default.
      boolean: (v) => String(v),
      object: (v) => JSON.stringify(v),
    },
  });
}
