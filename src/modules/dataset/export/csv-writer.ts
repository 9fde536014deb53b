import { stringify } from 'csv-stringify/sync';
import { formatValue } from './format-value';
import { endStream, ExportWriter, ExportWriterOptions, writeChunk } from './export-writer';

/** CSV per RFC 4180 (csv-stringify, one call per batch): a header row of titles, then the rows; null is empty. */
export class CsvWriter implements ExportWriter {
  constructor(private readonly opts: ExportWriterOptions) {}

  begin(titles: string[]): Promise<boolean> {
    return writeChunk(this.opts.out, toCsv([titles]));
  }

  write(rows: unknown[][]): Promise<boolean> {
    const { cols, formatRows } = this.opts;
    return writeChunk(this.opts.out, toCsv(rows.map((row) => row.map((v, i) => formatValue(v, cols[i], formatRows)))));
  }

  end(): Promise<void> {
    return endStream(this.opts.out);
  }
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
