import type { Response } from 'express';
import { writeResultJson } from '../../../common/http/write-result-json';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import type { DatasetAnswer, DatasetStream } from '../dataset.service';
import { CsvWriter } from './csv-writer';
import { columnSettingsOf, exportColumns, type ExportColumns } from './export-columns';
import type { ExportFormat, ExportSpec } from './export-request';
import type { ExportWriter, ExportWriterOptions } from './export-writer';
import { formatValue } from './format-value';
import { JsonWriter } from './json-writer';
import { layoutPivot, PIVOT_GROUPING } from './pivot-layout';

type FileFormat = Exclude<ExportFormat, 'api'>;

/** The XLSX writer (and exceljs, a tenth of a second to load) is loaded on the first XLSX download, not at start-up. */
const FILES: Record<FileFormat, { contentType: string; make: (o: ExportWriterOptions) => ExportWriter | Promise<ExportWriter> }> = {
  csv: { contentType: 'text/csv; charset=utf-8', make: (o) => new CsvWriter(o) },
  json: { contentType: 'application/json; charset=utf-8', make: (o) => new JsonWriter(o) },
  xlsx: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    make: async (o) => new (await import('./xlsx-writer')).XlsxWriter(o),
  },
};

/** HTTP status of a query that failed before its first row, for the file formats (see writeExport). */
export const FAILED_EXPORT_STATUS = 400;

/** The last line (CSV), last cell (XLSX) or last element (JSON) of a file whose query failed after its first rows. */
export function incompleteMessage(rows: number, error: string): string {
  return `Download incomplete: the query failed after ${rows} rows. ${error}`;
}

/**
 * THE download writer, for every `/:export-format` endpoint (dataset, card, dashcard, and the public and embed
 * twins): give it the response, what to write (`spec`), and the run (DatasetService.stream/run, or a pivot run);
 * it answers the request. Rows are written as they arrive, with backpressure; a client that leaves stops the
 * reading, which cancels the query.
 * - `api`: the result JSON as POST /api/dataset answers it, with 200 (a failed query: the failed shape with 202).
 * - files: a query that fails before any row answers 400 `{message, status: "failed", error, error_type}` (the
 *   caller's query, not our fault), not an empty file. Once rows have gone out the status cannot change: a failure
 *   then ends the file with incompleteMessage() (CSV: a last one-field record; XLSX: a last row of one red bold cell;
 *   JSON: a last element `{"download_incomplete": ...}` without the closing bracket, so that parsers refuse it).
 * - the card's `visualization_settings` choose and order the columns (`table.columns`), title them and, with
 *   `formatRows`, format their values (see export-columns.ts, column-format.ts).
 * - `pivotResults` on a pivot run: the table as the pivot table shows it (see pivotTable).
 * - the file is `<name>_<yyyy-MM-ddTHHmmss>.<format>` (UTC) in Content-Disposition (see contentDisposition).
 */
export async function writeExport(res: Response, spec: ExportSpec, answer: DatasetAnswer | DatasetStream, now = new Date()): Promise<void> {
  if (spec.format === 'api') {
    await writeResultJson(res, answer.status === 'failed' ? 202 : 200, answer);
    return;
  }
  if (answer.status === 'failed') {
    failed(res, answer);
    return;
  }
  const streamed = answer.status === 'streaming' ? answer : null;
  const whole = streamed ? null : (answer as Exclude<DatasetAnswer, { status: 'failed' }>);
  const cols: CompiledColumn[] = streamed ? streamed.head.data.cols : whole!.data.cols;
  // A pivot run is read whole (its subtotals come from several groupings): laid out before anything is written.
  const pivot = spec.pivotResults && whole && cols.some((c) => c.name === PIVOT_GROUPING) ? pivotTable(cols, whole.data.rows, spec) : null;
  const batches = (streamed ? streamed.rows : once(pivot ? pivot.rows : whole!.data.rows))[Symbol.asyncIterator]();
  // The first batch decides the status: a failure before any row is still an error answer, not a file.
  let next: IteratorResult<unknown[][]>;
  try {
    next = await batches.next();
  } catch (e) {
    await streamed?.close();
    throw e;
  }
  const early = next.done ? streamed?.outcome().failure : undefined;
  if (early) {
    failed(res, early);
    return;
  }
  const { contentType, make } = FILES[spec.format];
  const columns = pivot ?? exportColumns(cols, spec.visualizationSettings, spec.formatRows);
  const project = pivot || isIdentity(columns.indices, cols.length) ? null : (row: unknown[]) => columns.indices.map((i) => row[i]);
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', contentDisposition(exportFileName(spec.format, now, spec.name)));
  const writer = await make({ out: res, cols: columns.cols, formatRows: spec.formatRows, settings: columns.settings });
  let written = 0;
  try {
    let open = await writer.begin(columns.titles);
    for (; !next.done; next = await batches.next()) {
      if (open) open = await writer.write(project ? next.value.map(project) : next.value);
      written += next.value.length;
      if (!open) {
        // The client has gone: stop reading, which closes the query.
        await batches.return?.();
        return;
      }
    }
  } catch (e) {
    // Nothing sensible can follow half a file: a broken download rather than a hanging one.
    res.destroy(e as Error);
    throw e;
  }
  const failure = streamed?.outcome().failure;
  if (failure) {
    await writer.incomplete(incompleteMessage(written, failure.error));
    return;
  }
  await writer.end();
}

/**
 * The rows of a pivot run (tagged by `pivot-grouping`) as the pivot table shows them (pivot-layout.ts): one header
 * row of titles (the column headers' levels joined by " / "), the row headers, the cells, "Totals for …", "Row
 * totals" and "Grand totals". Breakout values in headers read as the column formats them.
 */
function pivotTable(cols: CompiledColumn[], rows: unknown[][], spec: ExportSpec): ExportColumns & { rows: unknown[][] } {
  const settings = columnSettingsOf(cols, spec.visualizationSettings);
  const label = (v: unknown, i: number) => (v === null || v === undefined ? '(empty)' : String(formatValue(v, cols[i], true, settings[i])));
  const layout = layoutPivot(cols, rows, spec.visualizationSettings, { label });
  return {
    indices: layout.sources,
    cols: layout.sources.map((i) => cols[i]),
    titles: layout.titles,
    settings: layout.sources.map((i) => settings[i]),
    rows: layout.rows,
  };
}

/** `query_result_2024-05-01T101500.csv`, or the card's name instead of `query_result`; the time in UTC. */
export function exportFileName(format: FileFormat, now: Date, name?: string): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '');
  // No path separators nor control characters in a file name; a blank name is the default one.
  const base = (name ?? '').replace(/[\u0000-\u001f\u007f/\\]/g, '_').trim() || 'query_result';
  return `${base}_${stamp}.${format}`;
}

/**
 * `attachment; filename="<name>"`, where a name that is not plain ASCII gets an ASCII fallback (other characters
 * `_`) and its exact form in `filename*=UTF-8''<percent-encoded>` (RFC 6266 / RFC 5987), which browsers prefer.
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === fileName) return `attachment; filename="${fileName}"`;
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A query that failed before its first row: 400 with its message (`error` too, as the failed result has it). */
function failed(res: Response, f: { error: string; error_type?: string }): void {
  res.status(FAILED_EXPORT_STATUS).json({ message: f.error, status: 'failed', error: f.error, error_type: f.error_type ?? null });
}

function isIdentity(indices: number[], length: number): boolean {
  return indices.length === length && indices.every((v, i) => v === i);
}

async function* once(rows: unknown[][]): AsyncGenerator<unknown[][]> {
  yield rows;
}
