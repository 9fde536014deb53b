import type { Response } from 'express';
import type { StreamedResults } from '../../query-engine/postprocess/results';
import { writeChunk } from './backpressure';

/** Rows held back before the answer starts going out: a result this small goes as one plain body. */
const BUFFER_ROWS = 2000;

/**
 * Sends a query result as JSON. A StreamedResults is written as its rows arrive: `data.rows` first, then the
 * rest of `data`, then the figures known only at the end (`row_count`, `running_time`, and `status: failed`
 * with the error when the database failed half-way; the 202 has long gone by then, as in Metabase). Small
 * results, and results that are already whole, go out as one body. Backpressure is respected; a client that
 * has gone stops the reading, which closes the query.
 */
export async function writeResultJson(res: Response, status: number, result: StreamedResults | object): Promise<void> {
  res.status(status);
  if (!isStreamed(result)) {
    res.json(result);
    return;
  }
  const batches = result.rows[Symbol.asyncIterator]();
  const held: unknown[][] = [];
  let done = false;
  try {
    while (held.length < BUFFER_ROWS) {
      const next = await batches.next();
      if (next.done) {
        done = true;
        break;
      }
      for (const row of next.value) held.push(row);
    }
  } catch (e) {
    await result.close();
    throw e;
  }
  if (done) {
    res.json(finalBody(result, held));
    return;
  }
  res.type('application/json');
  let open = writeChunk(res, `{"data":{"rows":${JSON.stringify(held).slice(0, -1)}`);
  try {
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      if (!(await open)) {
        await batches.return?.();
        return;
      }
      if (next.value.length === 0) continue;
      // One native stringify per batch, brackets dropped: far cheaper than a call and a concatenation per row.
      open = writeChunk(res, `,${JSON.stringify(next.value).slice(1, -1)}`);
    }
  } catch (e) {
    // Nothing sensible can follow half a body: end it so the client sees a broken answer, not a hanging one.
    res.destroy(e as Error);
    throw e;
  }
  const tail = JSON.stringify(finalBody(result, []));
  // `{"data":{"rows":[],` was sent already (with the rows); the rest of the body follows them.
  res.end(`]${tail.slice('{"data":{"rows":['.length + 1)}`);
}

function isStreamed(result: StreamedResults | object): result is StreamedResults {
  return (result as { status?: unknown }).status === 'streaming';
}

/** The whole answer once the rows are read, `data.rows` first (the streamed form writes it in that order). */
function finalBody(result: StreamedResults, rows: unknown[][]): object {
  const { data: headData, ...head } = result.head;
  const { rows: _none, ...data } = headData;
  const outcome = result.outcome();
  return {
    data: { rows, ...data, ...(outcome.rows_truncated ? { rows_truncated: outcome.rows_truncated } : {}) },
    ...head,
    ...(outcome.failure ? { status: 'failed', error: outcome.failure.error, error_type: outcome.failure.error_type } : {}),
    row_count: outcome.row_count,
    running_time: outcome.running_time,
  };
}
