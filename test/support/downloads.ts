import * as http from 'node:http';
import ExcelJS from 'exceljs';
import type { Response as SuperagentResponse } from 'superagent';

/** Helpers of the download e2e tests: reading back CSV, XLSX and raw bytes. */

/** RFC 4180 as csv-stringify writes it: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') {
      quoted = !quoted;
    } else if (quoted || (c !== ',' && c !== '\n' && c !== '\r')) {
      field += c;
    } else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
    }
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** A supertest parser keeping the body as bytes: `.buffer(true).parse(binary)`. */
export function binary(res: SuperagentResponse, done: (err: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

export async function readXlsx(body: unknown): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  // exceljs declares its own Buffer type; a Node Buffer is what it reads.
  await wb.xlsx.load(body as ExcelJS.Buffer);
  return wb.worksheets[0];
}

/**
 * Starts a download and leaves once its first bytes have arrived (a user closing the tab mid-download): resolves
 * with the status and the bytes read by then.
 */
export async function leaveAfterFirstBytes(
  server: http.Server,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; bytes: number }> {
  // The test app is not listening (supertest opens a port per request): listen on one for this client.
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: address.port,
        path,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        res.once('data', (chunk: Buffer) => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, bytes: chunk.length });
        });
        res.once('end', () => resolve({ status: res.statusCode ?? 0, bytes: 0 }));
      },
    );
    req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
    req.end(body);
  });
}
