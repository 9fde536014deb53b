import { MessageError } from '../../common/errors/api-errors';
import { normalizeValue, ROW_ID, TypeTracker, type UploadType } from './column-types';
import type { CsvFormat } from './csv-format';
import { NotUtf8Error, readCsv, sniffFormat, visitCsv } from './csv-reader';
import type { RowBatches, UploadColumn } from './loaders/bulk-loader';
import { columnNames } from './upload-names';

export interface CsvAnalysis {
  format: CsvFormat;
  /** Sanitized column names with their types (a column without any value is text). */
  columns: UploadColumn[];
  /** Per column, the type of its values, or null when it has none (fits any column on append). */
  seen: Array<UploadType | null>;
  /** `id` when that column can be the key, else null (a key is generated). */
  pk: string | null;
  rows: number;
  /** The file's values are as the database would read them (no blanks to null, no spaces to trim, no empty lines). */
  tidy: boolean;
}

/**
 * The first pass over a file: format, header, the type of every column (from all values), the key. A file that
 * turns out not to be UTF-8 past the sampled start is read again as Latin-1.
 */
export async function analyzeCsv(file: string): Promise<CsvAnalysis> {
  const format = await sniffFormat(file);
  try {
    return await scan(file, format);
  } catch (e) {
    if (!(e instanceof NotUtf8Error)) throw e;
    return scan(file, { ...format, encoding: 'latin1' });
  }
}

async function scan(file: string, format: CsvFormat): Promise<CsvAnalysis> {
  // The header row makes the tracker; the data rows are typed in place, as positions in the decoded text.
  const state: { tracker: TypeTracker | null } = { tracker: null };
  const stats = await visitCsv(file, format, (text, count, starts, ends, quoted) => {
    if (state.tracker) return state.tracker.visit(text, count, starts, ends, quoted);
    const header: string[] = [];
    for (let k = 0; k < count; k++) header.push(quoted[k] ?? text.slice(starts[k], ends[k]));
    state.tracker = new TypeTracker(columnNames(header, ROW_ID));
  });
  const { tracker } = state;
  const rows = stats.records - 1;
  if (!tracker) throw new MessageError('The CSV file is empty.');
  if (rows === 0) throw new MessageError('The CSV file contains only a header row and no data.');
  const { types, pk } = tracker.result();
  return {
    format,
    columns: tracker.names.map((name, i) => ({ name, type: types[i] })),
    seen: [...tracker.types],
    pk,
    rows,
    tidy: !tracker.untidy && stats.emptyLines === 0,
  };
}

/** The second pass: the data rows (header skipped), values normalized for the columns' types. */
export async function* csvRows(file: string, analysis: CsvAnalysis): RowBatches {
  const types = analysis.columns.map((c) => c.type);
  let header = true;
  for await (const batch of readCsv(file, analysis.format)) {
    const out: Array<Array<string | null>> = new Array(batch.length - (header ? 1 : 0));
    let k = 0;
    for (let r = header ? 1 : 0; r < batch.length; r++) {
      const raw = batch[r];
      const row: Array<string | null> = new Array(types.length);
      for (let i = 0; i < types.length; i++) row[i] = normalizeValue(raw[i], types[i]);
      out[k++] = row;
    }
    header = false;
    if (out.length) yield out;
  }
}
