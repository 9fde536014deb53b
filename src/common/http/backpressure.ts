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
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

/** Ends the stream and waits until it has flushed (or the client has gone). */
export async function endStream(out: Writable, chunk?: string): Promise<void> {
  if (out.destroyed) return;
  const done = Promise.race([once(out, 'finish'), once(out, 'close')]);
  out.end(chunk);
  await done;
}
