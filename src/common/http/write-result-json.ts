import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Response } from 'express';

const CHUNK_ROWS = 2000;

/**
 * Sends a query result as JSON, writing its `data.rows` in chunks as they are serialized: the socket sends while
 * the next rows are encoded, and no single string of the whole result is built and then copied again. Small
 * results go out in one piece. Backpressure is respected; a client that has gone stops the writing.
 */
export async function writeRowsJson(res: Response, status: number, result: { data?: { rows?: unknown[][] } }): Promise<void> {
  const rows = result.data?.rows;
  res.status(status);
  if (!rows || rows.length <= CHUNK_ROWS) {
    res.json(result);
    return;
  }
  const marker = `__rows_${randomBytes(8).toString('hex')}__`;
  const [head, tail] = JSON.stringify({ ...result, data: { ...result.data, rows: marker } }).split(`"${marker}"`);
  res.type('application/json');
  res.write(`${head}[`);
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    if (res.destroyed) return;
    // One native stringify per slice, brackets dropped: far cheaper than a call and a concatenation per row.
    const slice = JSON.stringify(rows.slice(i, i + CHUNK_ROWS));
    const chunk = (i === 0 ? '' : ',') + slice.slice(1, -1);
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  }
  res.end(`]${tail}`);
}
