import type { Response } from 'express';
import { BufferedOutput } from './buffered-output';

/**
 * Answers 200 with a JSON array whose items arrive in batches, each item already JSON text, writing each batch as it
 * comes: a listing of tens of thousands of objects is never one string in memory, and its first bytes leave while
 * the database still produces the rest. The first batch is read before anything is sent, so a failing query still
 * gets the API's error answer; a failure after that ends the body early (a client then sees broken JSON, not a
 * short list). A client that leaves stops the batches.
 */
export async function sendJsonArray(res: Response, batches: AsyncIterable<string[]>): Promise<void> {
  const source = batches[Symbol.asyncIterator]();
  const first = await source.next();
  res.status(200).type('application/json');
  const output = new BufferedOutput(res);
  let open = first.done ? Promise.resolve(true) : output.writeJoined('[', first.value, ',');
  let started = !first.done && first.value.length > 0;
  try {
    for (let next = first.done ? first : await source.next(); !next.done; next = await source.next()) {
      if (!(await open)) {
        await source.return?.();
        return;
      }
      if (next.value.length === 0) continue;
      open = output.writeJoined(started ? ',' : '', next.value, ',');
      started = true;
    }
  } catch (e) {
    res.destroy(e as Error);
    throw e;
  }
  if (!(await open)) return;
  await output.end(first.done ? '[]' : ']');
}

/**
 * Objects as the batches of JSON texts sendJsonArray writes: each stringified only when its batch is formed, a batch
 * closed once it holds about `chars` characters (a subtree of thousands of nodes is one item, a leaf a few hundred
 * characters: neither a write per leaf nor one whole answer).
 */
export async function* jsonBatches(items: Iterable<unknown>, chars = 256 * 1024): AsyncGenerator<string[]> {
  let batch: string[] = [];
  let size = 0;
  for (const item of items) {
    const json = JSON.stringify(item);
    batch.push(json);
    size += json.length;
    if (size >= chars) {
      yield batch;
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
