import ExcelJS from 'exceljs';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import { formatExtraction, formatTime, formatValue, isTemporal, isTime, parseTemporal } from './format-value';
import { ExportWriter, ExportWriterOptions, waitForDrain } from './export-writer';

/**
 * XLSX through exceljs's streaming writer, straight into the response: rows are committed as they come, strings
 * inline (no shared-strings table held in memory). Dates are Excel dates (the wall-clock time the query answered)
 * with a number format after the column's unit; with `format_rows` false, an ISO-like format.
 */
export class XlsxWriter implements ExportWriter {
  private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter;
  private readonly sheet: ExcelJS.Worksheet;

  constructor(private readonly opts: ExportWriterOptions) {
    this.workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: opts.out, useStyles: true, useSharedStrings: false });
    this.sheet = this.workbook.addWorksheet('Query result');
  }

  async begin(titles: string[]): Promise<boolean> {
    const header = this.sheet.addRow(titles);
    header.font = { bold: true };
    header.commit();
    return this.drained();
  }

  async write(rows: unknown[][]): Promise<boolean> {
    const { cols, formatRows } = this.opts;
    for (const values of rows) {
      // Array.from, not map: exceljs tests `instanceof Array`, and a driver's rows may come from another realm (jest's sandbox).
      const row = this.sheet.addRow(Array.from(values, (v, i) => cellValue(v, cols[i], formatRows)));
      values.forEach((v, i) => {
        const numFmt = typeof v === 'string' ? dateFormat(v, cols[i], formatRows) : null;
        if (numFmt) row.getCell(i + 1).numFmt = numFmt;
      });
      row.commit();
    }
    return this.drained();
  }

  async end(): Promise<void> {
    if (this.opts.out.destroyed) return;
    // commit() ends the output stream once the zip is written.
    await this.workbook.commit();
  }

  /** Lets the zip writer pass on what it has, then waits while the socket is full. */
  private async drained(): Promise<boolean> {
    await new Promise((resolve) => setImmediate(resolve));
    await waitForDrain(this.opts.out);
    return !this.opts.out.destroyed;
  }
}

/** What a cell holds: a Date for temporal values, numbers and booleans as they are, everything else as text. */
export function cellValue(value: unknown, col: CompiledColumn, formatRows: boolean): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && isTemporal(col)) {
    const t = parseTemporal(value);
    if (t && !(formatRows && (col.unit === 'quarter' || col.unit === 'week'))) return new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
    return String(formatValue(value, col, formatRows));
  }
  if (typeof value === 'string' && isTime(col) && formatRows) return formatTime(value) ?? value;
  if (typeof value === 'number') return formatRows && col.unit ? (formatExtraction(value, col.unit) ?? value) : value;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** The Excel number format of a temporal cell, or null when the cell is not a date. */
export function dateFormat(value: string, col: CompiledColumn, formatRows: boolean): string | null {
  if (!isTemporal(col)) return null;
  const t = parseTemporal(value);
  if (!t) return null;
  const dateOnly = !t.hasTime || (col.effective_type ?? col.base_type) === 'type/Date';
  if (!formatRows) return dateOnly ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss';
  switch (col.unit) {
    case 'year':
      return 'yyyy';
    case 'month':
      return 'mmmm, yyyy';
    case 'quarter':
    case 'week':
      return null;
    case 'day':
      return 'mmmm d, yyyy';
    default:
      return dateOnly ? 'mmmm d, yyyy' : 'mmmm d, yyyy, h:mm AM/PM';
  }
}
