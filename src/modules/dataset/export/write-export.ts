import type { Response } from 'express';
import { writeResultJson } from '../../../common/http/write-result-json';
import type { CompiledColumn } from '../../../query-engine/compile/contract';
import type { DatasetAnswer, DatasetStream } from '../dataset.service';
import { columnTitles } from './column-titles';
import { CsvWriter } from './csv-writer';
import type { ExportRequest, ExportFormat } from './export-request';
import type { ExportWriter, ExportWriterOptions } from './export-writer';
import { JsonWriter } from './json-writer';
import { XlsxWriter } from './xlsx-writer';

type FileFormat = Exclude<ExportFormat, 'api'>;

const FILES: Record<FileFormat, { contentType: string; make: (o: ExportWriterOptions) => ExportWriter }> = {
  csv: { contentType: 'text/csv', make: (o) => new CsvWriter(o) },
  json: { contentType: 'application/json; charset=utf-8', make: (o) => new JsonWriter(o) },
  xlsx: { contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', make: (o) => new XlsxWriter(o) },
};

/** HTTP status of a query that failed before its first row, for the file formats (see writeExport). */
export const FAILED_EXPORT_STATUS = 400;

/**
 * Writes a query result as the requested download, rows as they arrive.
 * - `api`: the result JSON as POST /api/dataset answers it, with 200 (a failed query: the failed shape with 202).
 * - files: a query that fails before any row answers 400 `{status: "failed", error, error_type}` (Metabase sends
 *   the failed result as JSON too, with a 5xx; it is the caller's query, not our fault). Once rows have gone out
 *   the status cannot change: a failure then ends the file where the rows stopped (CSV after the last row; JSON
 *   without its closing bracket, so that no parser takes it for the whole answer; XLSX as a workbook of the rows read).
 */
export async function writeExport(res: Response, request: ExportRequest, answer: DatasetAnswer | DatasetStream, now = new Date()): Promise<void> {
  if (request.format === 'api') {
    await writeResultJson(res, answer.status === 'failed' ? 202 : 200, answer);
    return;
  }
  if (answer.status === 'failed') {
    failed(res, answer);
    return;
  }
  const streamed = answer.status === 'streaming' ? answer : null;
  const cols: CompiledColumn[] = streamed ? streamed.head.data.cols : (answer as Exclude<DatasetAnswer, { status: 'failed' }>).data.cols;
  const batches = (streamed ? streamed.rows : whole((answer as Exclude<DatasetAnswer, { status: 'failed' }>).data.rows))[Symbol.asyncIterator]();
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
  const { contentType, make } = FILES[request.format];
  res.status(200);
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Disposition', `attachment; filename="${exportFileName(request.format, now)}"`);
  const writer = make({ out: res, cols, formatRows: request.formatRows });
  try {
    let open = await writer.begin(columnTitles(cols, request.visualizationSettings));
    for (; !next.done; next = await batches.next()) {
      if (open) open = await writer.write(next.value);
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
  if (streamed?.outcome().failure && request.format === 'json') {
    res.end();
    return;
  }
  await writer.end();
}

/** `query_result_2024-05-01T101500.csv`, the time in UTC. */
export function exportFileName(format: FileFormat, now: Date): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '');
  return `query_result_${stamp}.${format}`;
}

function failed(res: Response, f: { error: string; error_type?: string }): void {
  res.status(FAILED_EXPORT_STATUS).json({ status: 'failed', error: f.error, error_type: f.error_type ?? null });
}

async function* whole(rows: unknown[][]): AsyncGenerator<unknown[][]> {
  yield rows;
}
