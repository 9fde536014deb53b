import { EventEmitter } from 'node:events';
import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import {
  datePattern,
  excelNumberFormat,
  excelPattern,
  monthPattern,
  scaledNumber,
  timePattern,
  type ColumnSettings,
} from './column-format';
import { formatExtraction, formatTime, formatValue, isTemporal, isTime, parseTemporal } from './format-value';
import { firstEvent } from '../../../common/http/backpressure';
import { ExportWriter, ExportWriterOptions, waitForDrain } from './export-writer';

/** Column widths follow the content of the header and this many first rows. */
export const WIDTH_SAMPLE_ROWS = 100;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
/** How much sheet XML may wait for the zip to deflate it before the rows wait (see drained()). */
export const MAX_SHEET_BACKLOG = 1 << 18;
/** Rows written between two looks at that backlog (a few hundred rows are about 100 kB of XML). */
const DRAIN_EVERY_ROWS = 256;
/** Deflate level 1, the fastest: the sheet XML is so repetitive that the file is hardly larger than at zlib's default 6. */
const ZIP_LEVEL = 1;

/** The kinds of cell exceljs styles differently (its cell type): one shared style object per column and kind. */
type CellKind = 'null' | 'number' | 'string' | 'boolean' | 'date' | 'datetime';

/**
 * XLSX through exceljs's streaming writer, straight into the response: rows are committed as they come (after the
 * first WIDTH_SAMPLE_ROWS, held back until their widths are known: the widths are written before the first row),
 * strings inline (no shared-strings table held in memory). The header row is bold and frozen. Cells are typed:
 * numbers (with an Excel number format from the column settings when `format_rows`), booleans, and dates as
 * Excel dates (the wall-clock time the query answered) with a date format after the column's unit and settings;
 * with `format_rows` false, an ISO-like format.
 */
export class XlsxWriter implements ExportWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;
  private widths: number[] = [];
  private held = 0;
  private sized = false;
  private readonly styles: Array<Partial<Record<CellKind, Partial<ExcelJS.Style>>>>;

  constructor(private readonly opts: ExportWriterOptions) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: opts.out,
      useStyles: true,
      useSharedStrings: false,
      zip: { zlib: { level: ZIP_LEVEL } },
    });
    encodeSheetTextInPlace(this.workbook);
    this.styles = opts.cols.map(() => ({}));
    this.sheet = this.workbook.addWorksheet('Query result', { views: [{ state: 'frozen', ySplit: 1 }] });
  }

  async begin(titles: string[]): Promise<boolean> {
    // Array.from: exceljs tests `instanceof Array`, and titles mapped from a driver's columns may come from another realm.
    const header = this.sheet.addRow(Array.from(titles));
    header.font = { bold: true };
    this.widths = titles.map((t) => t.length + 2);
    return !this.opts.out.destroyed;
  }

  async write(rows: unknown[][]): Promise<boolean> {
    const { cols, formatRows } = this.opts;
    const settings = this.opts.settings ?? [];
    let sinceDrained = 0;
    for (const values of rows) {
      // The backlog is checked every few hundred rows, not once a batch: a batch's XML alone is many zip buffers.
      if (++sinceDrained > DRAIN_EVERY_ROWS) {
        sinceDrained = 0;
        if (!(await this.drained())) return false;
      }
      // Array.from, not map: exceljs tests `instanceof Array`, and a driver's rows may come from another realm (jest's sandbox).
      const cells = Array.from(values, (v, i) => cellValue(v, cols[i], formatRows, settings[i] ?? {}));
      const row = this.sheet.addRow(cells);
      for (let i = 0; i < cells.length; i++) row.getCell(i + 1).style = this.styleOf(i, values[i], cells[i]);
      // Committed at once (after the sample rows): a row and its cells then die young, where rows held for a batch
      // outlive the scavenges and fill the old generation (committing each at once halved the writer's CPU time).
      if (this.sized) row.commit();
      else this.measure(values, cells);
    }
    return this.drained();
  }

  /** The file ends with a row whose first cell says why the rows stop there. */
  async incomplete(message: string): Promise<void> {
    const row = this.sheet.addRow(Array.from([message]));
    row.font = { bold: true, color: { argb: 'FFC00000' } };
    await this.end();
  }

  async end(): Promise<void> {
    if (this.opts.out.destroyed) return;
    this.applyWidths();
    // commit() commits the rows left and ends the output stream once the zip is written.
    await this.workbook.commit();
  }

  private measure(values: unknown[], cells: ExcelJS.CellValue[]): void {
    cells.forEach((c, i) => {
      const shown =
        c instanceof Date
          ? 20
          : c === null || c === undefined
            ? 0
            : typeof values[i] === 'number' && typeof c === 'number'
              ? String(c).length + 2
              : String(c).length;
      this.widths[i] = Math.max(this.widths[i] ?? 0, shown + 1);
    });
    if (++this.held >= WIDTH_SAMPLE_ROWS) this.applyWidths();
  }

  private applyWidths(): void {
    if (this.sized) return;
    this.sized = true;
    this.widths.forEach((w, i) => (this.sheet.getColumn(i + 1).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w))));
  }

  /**
   * The style of a cell: the same object for every cell of a column and kind (exceljs maps a style object it has
   * seen to its style id, where a new object per cell costs a rendering of its XML per cell). Its number format is
   * cellFormat's, which depends on the column, the kind and, for dates, on whether the value has a time only.
   */
  private styleOf(i: number, value: unknown, cell: ExcelJS.CellValue): Partial<ExcelJS.Style> {
    const kind = kindOf(value, cell);
    const known = this.styles[i][kind];
    if (known) return known;
    const numFmt =
      kind === 'number' || kind === 'date' || kind === 'datetime'
        ? cellFormat(value, this.opts.cols[i], this.opts.formatRows, this.opts.settings?.[i] ?? {})
        : null;
    return (this.styles[i][kind] = numFmt ? { numFmt } : {});
  }

  /**
   * Lets the zip writer pass on what it has, waits while the socket is full, then while the sheet XML waiting to be
   * deflated is over MAX_SHEET_BACKLOG: exceljs writes it into its zip entry without heeding that stream's
   * backpressure, so rows made faster than they are deflated would pile up there, however slowly the client reads.
   */
  private async drained(): Promise<boolean> {
    const { out } = this.opts;
    await new Promise((resolve) => setImmediate(resolve));
    await waitForDrain(out);
    for (
      let entry = sheetEntry(this.sheet);
      entry && !out.destroyed && entry._writableState.length > MAX_SHEET_BACKLOG;
      entry = sheetEntry(this.sheet)
    ) {
      await firstEvent([entry, 'drain'], [entry, 'close'], [out, 'close']);
      await waitForDrain(out);
    }
    return !out.destroyed;
  }
}

/** The zip entry stream a worksheet's XML goes into, when exceljs's internals have the shape of exceljs 4. */
interface ZipEntryStream extends EventEmitter {
  _writableState: { length: number; needDrain: boolean };
}

/**
 * The stream exceljs pipes a streamed worksheet's XML into (its StreamBuf's first pipe: archiver's entry), when it
 * is there and waiting on it will end (it emits `drain` once it has asked for one); null otherwise: the writer then
 * only heeds the socket's backpressure, as before.
 */
export function sheetEntry(sheet: ExcelJS.Worksheet): ZipEntryStream | null {
  const pipes = (sheet as unknown as { _stream?: { pipes?: unknown } })._stream?.pipes;
  const entry: unknown = Array.isArray(pipes) ? pipes[0] : undefined;
  if (!(entry instanceof EventEmitter)) return null;
  const state = (entry as Partial<ZipEntryStream>)._writableState;
  return typeof state?.length === 'number' && state.needDrain === true ? (entry as ZipEntryStream) : null;
}

/** exceljs's StreamBuf (a worksheet's XML on its way to the zip), in the parts encodeSheetTextInPlace uses. */
interface SheetStreamBuf {
  batch: boolean;
  corked: boolean;
  pipes: unknown[];
  buffers: Array<{ buffer: Buffer; iWrite: number; size: number }>;
  write(data: unknown, encoding?: unknown, callback?: unknown): unknown;
  _getWritableBuffer(): { buffer: Buffer; iWrite: number; size: number };
  _pipe(chunk: unknown): unknown;
}

const utf8 = new TextEncoder();

/**
 * exceljs turns each row's XML into a Buffer of its own (Buffer.from) only to copy it into the 64 kB buffers it
 * hands the zip: a million rows made some 400 MB of small native blocks that the collector frees late, which
 * left glibc's heap tens of MB larger after one download. Here a worksheet stream in batch mode, piped and not
 * corked (the case of every row written after the first), takes text encoded straight into its current buffer,
 * as its own write would copy it there, and passes on each buffer it fills as its own write does. Anything
 * else (no pipe yet, corked, not text), and a character that does not fit a buffer's last bytes, goes through
 * exceljs's own write. Streams without that shape (another exceljs) are left as they are.
 */
export function encodeSheetTextInPlace(workbook: ExcelJS.stream.xlsx.WorkbookWriter): void {
  const internals = workbook as unknown as { _openStream?: (path: string) => unknown };
  if (typeof internals._openStream !== 'function') return;
  const open = internals._openStream.bind(workbook);
  internals._openStream = (path: string) => {
    const stream = open(path);
    if (isSheetStreamBuf(stream)) {
      const write = stream.write.bind(stream);
      stream.write = (data, encoding, callback) =>
        typeof data === 'string' && encoding === undefined && stream.batch && !stream.corked && stream.pipes.length
          ? writeInPlace(stream, data, write)
          : write(data, encoding, callback);
    }
    return stream;
  };
}

function writeInPlace(stream: SheetStreamBuf, text: string, write: SheetStreamBuf['write']): unknown {
  let rest = text;
  while (rest.length > 0) {
    const target = stream._getWritableBuffer();
    const { read, written } = utf8.encodeInto(rest, target.buffer.subarray(target.iWrite, target.size));
    target.iWrite += written;
    if (read === 0) return write(rest);
    rest = rest.slice(read);
  }
  while (!stream.corked && stream.buffers.length > 1) stream._pipe(stream.buffers.shift());
  return true;
}

function isSheetStreamBuf(stream: unknown): stream is SheetStreamBuf {
  const s = stream as Partial<SheetStreamBuf> | null;
  return (
    !!s &&
    typeof s.write === 'function' &&
    typeof s._getWritableBuffer === 'function' &&
    typeof s._pipe === 'function' &&
    Array.isArray(s.buffers) &&
    Array.isArray(s.pipes) &&
    typeof s.batch === 'boolean'
  );
}

function kindOf(value: unknown, cell: ExcelJS.CellValue): CellKind {
  if (cell === null || cell === undefined) return 'null';
  if (cell instanceof Date) return hasTime(value as string) ? 'datetime' : 'date';
  if (typeof cell === 'number') return 'number';
  if (typeof cell === 'boolean') return 'boolean';
  return 'string';
}

/** Whether an ISO date-time that parseTemporal read has a time: one follows the 10 characters of the date. */
function hasTime(iso: string): boolean {
  const c = iso.charCodeAt(10);
  return c === 84 /* T */ || c === 32; /* space */
}

/** What a cell holds: a Date for temporal values, numbers and booleans as they are, everything else as text. */
export function cellValue(value: unknown, col: CompiledColumn, formatRows: boolean, settings: ColumnSettings = {}): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && isTemporal(col)) {
    const t = parseTemporal(value);
    if (t && !(formatRows && (col.unit === 'quarter' || col.unit === 'week')))
      return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond));
    return String(formatValue(value, col, formatRows, settings));
  }
  if (typeof value === 'string' && isTime(col) && formatRows) return formatTime(value, settings) ?? value;
  if (typeof value === 'number') {
    if (!formatRows) return value;
    const named = col.unit ? formatExtraction(value, col.unit) : null;
    return named ?? scaledNumber(value, settings);
  }
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** The Excel number format of a cell: a date format for dates, the settings' number format for numbers, or null. */
export function cellFormat(value: unknown, col: CompiledColumn, formatRows: boolean, settings: ColumnSettings = {}): string | null {
  if (typeof value === 'string') return dateFormat(value, col, formatRows, settings);
  if (typeof value === 'number' && formatRows && !(col.unit && formatExtraction(value, col.unit) !== null))
    return excelNumberFormat(col, settings);
  return null;
}

/** The Excel number format of a temporal cell, or null when the cell is not a date. */
export function dateFormat(value: string, col: CompiledColumn, formatRows: boolean, settings: ColumnSettings = {}): string | null {
  if (!isTemporal(col)) return null;
  const t = parseTemporal(value);
  if (!t) return null;
  const dateOnly = !t.hasTime || (col.effective_type ?? col.base_type) === 'type/Date';
  if (!formatRows) return dateOnly ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss';
  const date = excelPattern(datePattern(settings));
  switch (col.unit) {
    case 'year':
      return 'yyyy';
    case 'month':
      return excelPattern(monthPattern(settings));
    case 'quarter':
    case 'week':
      return null;
    case 'day':
      return date;
    default: {
      const time = timePattern(settings);
      return dateOnly || time === null ? date : `${date}, ${excelPattern(time)}`;
    }
  }
}
