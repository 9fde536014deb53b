import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { datePattern, excelNumberFormat, excelPattern, monthPattern, scaledNumber, timePattern, type ColumnSettings } from './column-format';
import { formatExtraction, formatTime, formatValue, isTemporal, isTime, parseTemporal } from './format-value';
import { ExportWriter, ExportWriterOptions, waitForDrain } from './export-writer';

/** Column widths follow the content of the header and this many first rows. */
export const WIDTH_SAMPLE_ROWS = 100;
const MIN_WIDTH = 8;
const MAX_WIDTH = 60;

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

  constructor(private readonly opts: ExportWriterOptions) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: opts.out, useStyles: true, useSharedStrings: false });
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
    let last: ExcelJS.Row | null = null;
    for (const values of rows) {
      // Array.from, not map: exceljs tests `instanceof Array`, and a driver's rows may come from another realm (jest's sandbox).
      const cells = Array.from(values, (v, i) => cellValue(v, cols[i], formatRows, settings[i] ?? {}));
      const row = this.sheet.addRow(cells);
      values.forEach((v, i) => {
        const numFmt = cellFormat(v, cols[i], formatRows, settings[i] ?? {});
        if (numFmt) row.getCell(i + 1).numFmt = numFmt;
      });
      if (!this.sized) this.measure(values, cells);
      last = row;
    }
    if (this.sized && last) last.commit();
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
      const shown = c instanceof Date ? 20 : c === null || c === undefined ? 0 : typeof values[i] === 'number' && typeof c === 'number' ? String(c).length + 2 : String(c).length;
      this.widths[i] = Math.max(this.widths[i] ?? 0, shown + 1);
    });
    if (++this.held >= WIDTH_SAMPLE_ROWS) this.applyWidths();
  }

  private applyWidths(): void {
    if (this.sized) return;
    this.sized = true;
    this.widths.forEach((w, i) => (this.sheet.getColumn(i + 1).width = Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w))));
  }

  /** Lets the zip writer pass on what it has, then waits while the socket is full. */
  private async drained(): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    await waitForDrain(this.opts.out);
    return !this.opts.out.destroyed;
  }
}

/** What a cell holds: a Date for temporal values, numbers and booleans as they are, everything else as text. */
export function cellValue(value: unknown, col: CompiledColumn, formatRows: boolean, settings: ColumnSettings = {}): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && isTemporal(col)) {
    const t = parseTemporal(value);
    if (t && !(formatRows && (col.unit === 'quarter' || col.unit === 'week'))) return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.millisecond));
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
  if (typeof value === 'number' && formatRows && !(col.unit && formatExtraction(value, col.unit) !== null)) return excelNumberFormat(col, settings);
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
