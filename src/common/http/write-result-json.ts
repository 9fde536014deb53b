import type { Response } from 'express';
import type { StreamedResults } from '../../query-engine/postprocess/results';
import { BufferedOutput } from './buffered-output';

/** Rows held back before the answer starts going out: a result this small goes as one plain body. */
const BUFFER_ROWS = 2000;
/** A body up to this many characters is written as a string (Node copies up to 16 kB, three bytes a character, on its stack). */
const SMALL_BODY_CHARS = 5000;

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
    await sendWhole(res, JSON.stringify(result));
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
    await sendWhole(res, JSON.stringify(finalBody(result, held)));
    return;
  }
  res.type('application/json');
  const output = new BufferedOutput(res);
  let open = output.write(`{"data":{"rows":${JSON.stringify(held).slice(0, -1)}`);
  try {
    for (let next = await batches.next(); !next.done; next = await batches.next()) {
      if (!(await open)) {
        await batches.return?.();
        return;
      }
      if (next.value.length === 0) continue;
      // One native stringify per batch, brackets dropped: far cheaper than a call and a concatenation per row.
      open = output.write(`,${JSON.stringify(next.value).slice(1, -1)}`);
    }
  } catch (e) {
    // Nothing sensible can follow half a body: end it so the client sees a broken answer, not a hanging one.
    res.destroy(e as Error);
    throw e;
  }
  if (!(await open)) return;
  const tail = JSON.stringify(finalBody(result, []));
  // `{"data":{"rows":[],` was sent already (with the rows); the rest of the body follows them.
  await output.end(`]${tail.slice('{"data":{"rows":['.length + 1)}`);
}

/**
 * A whole body, as Express's res.json sends it (same type, charset and length). A small one goes as it is: Node
 * writes a string of up to 16 kB from the stack. A larger one goes through reused buffers (BufferedOutput), where
 * res.json would make it a Buffer of its size that lives until the next collection.
 */
async function sendWhole(res: Response, body: string): Promise<void> {
  res.type('application/json');
  res.setHeader('Content-Length', Buffer.byteLength(body));
  if (body.length <= SMALL_BODY_CHARS) {
    res.end(body);
    return;
  }
  await new BufferedOutput(res).end(body);
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
