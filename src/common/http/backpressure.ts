import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';

/** Writes; after a write that fills the socket, waits for it to drain (or close). False when the client has gone. */
export async function writeChunk(out: Writable, chunk: string | Buffer): Promise<boolean> {
  if (out.destroyed) return false;
  if (!out.write(chunk)) await waitForDrain(out);
  return !out.destroyed;
}

export async function waitForDrain(out: Writable): Promise<void> {
  if (out.destroyed || !out.writableNeedDrain) return;
  await firstEvent([out, 'drain'], [out, 'close']);
}

/** Ends the stream and waits until it has flushed (or the client has gone). */
export async function endStream(out: Writable, chunk?: string): Promise<void> {
  if (out.destroyed) return;
  const done = firstEvent([out, 'finish'], [out, 'close']);
  out.end(chunk);
  await done;
}

/**
 * The first of some events, each on its emitter; an `error` on any of them rejects. Every listener it added is
 * removed once one fires: a large download waits for `drain` thousands of times on one response, and a leftover
 * listener would stay until the response ends. Plain listeners, not `events.once` with an AbortSignal: aborting
 * makes an AbortError (with its stack) on every wait.
 */
export function firstEvent(...events: Array<[EventEmitter, string]>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const emitters = [...new Set(events.map(([e]) => e))];
    const settle = (error?: unknown) => {
      for (const [emitter, name] of events) emitter.off(name, onEvent);
      for (const emitter of emitters) emitter.off('error', onError);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onEvent = () => settle();
    const onError = (e: unknown) => settle(e ?? new Error('stream error'));
    for (const [emitter, name] of events) emitter.on(name, onEvent);
    for (const emitter of emitters) emitter.on('error', onError);
  });
}
