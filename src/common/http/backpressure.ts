import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes; after a write that fills the socket, waits for it to drain (or close). False when the client has gone. */
export async function writeChunk(out: Writable, chunk: string | Buffer): Promise<boolean> {
  if (out.destroyed) return false;
  if (!out.write(chunk)) await waitForDrain(out);
  return !out.destroyed;
}

export async function waitForDrain(out: Writable): Promise<void> {
  if (out.destroyed || !out.writableNeedDrain) return;
  await firstOf(out, 'drain', 'close');
}

/** Ends the stream and waits until it has flushed (or the client has gone). */
export async function endStream(out: Writable, chunk?: string): Promise<void> {
  if (out.destroyed) return;
  const done = firstOf(out, 'finish', 'close');
  out.end(chunk);
  await done;
}

/**
 * The first of two events. The listeners of the one that did not happen are removed: a large download waits for
 * `drain` thousands of times on one response, and each leftover `close`/`error` listener would stay until it ends.
 */
async function firstOf(out: Writable, a: string, b: string): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race([once(out, a, { signal: ac.signal }), once(out, b, { signal: ac.signal })]);
  } finally {
    ac.abort();
  }
}
