import type { Writable } from 'node:stream';
import { endStream, waitForDrain } from './backpressure';

/** Bytes per output buffer: a socket write each, large enough to keep the writes few. */
export const OUTPUT_BUFFER_BYTES = 64 * 1024;
/** Buffers kept for reuse once written (4 MB at most): about two per answer being written at once. */
const POOL_LIMIT = 64;

/**
 * Output buffers taken for an answer and given back once the socket has written them. Text written to a socket as a
 * string is copied by Node into a fresh native block per write (three bytes per character, a few hundred kB per
 * batch of rows), and a body made into one Buffer lives until the next collection: those blocks, freed in the order
 * the collector finds them, left glibc's heap holding tens of MB after a large answer. Encoding into buffers that
 * are reused keeps that memory to the buffers themselves.
 */
export class OutputBufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    readonly bufferBytes = OUTPUT_BUFFER_BYTES,
    private readonly limit = POOL_LIMIT,
  ) {}

  take(): Buffer {
    // allocUnsafeSlow: a block of its own, never a slice of Node's shared pool (which a reuse would overwrite).
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.bufferBytes);
  }

  /** A buffer the socket is done with; past the limit it is left to the collector. */
  give(buffer: Buffer): void {
    if (this.free.length < this.limit && buffer.length === this.bufferBytes) this.free.push(buffer);
  }

  /** Buffers waiting to be reused (for tests). */
  get idle(): number {
    return this.free.length;
  }
}

const SHARED_POOL = new OutputBufferPool();
const utf8 = new TextEncoder();

/**
 * Text written to a stream through reused buffers. write() encodes a piece of the answer (a batch of rows) into
 * buffers and hands them all to the stream, the last one part-filled, so each piece leaves at once as it did
 * written as a string; it resolves after a drain when the stream asked for one, false once the client has gone.
 * end() sends its text with the end of the stream. A buffer goes back to the pool when the stream's write
 * callback says it has been written, so no byte is overwritten while the socket may still read it. The bytes are
 * exactly the text's UTF-8. One call at a time: each write() or end() waits for the one before it.
 */
export class BufferedOutput {
  private buffer: Buffer | null = null;
  private used = 0;

  constructor(
    private readonly out: Writable,
    private readonly pool: OutputBufferPool = SHARED_POOL,
  ) {}

  /** Sends `text`; false once the client has gone (the rest is dropped). */
  write(text: string): Promise<boolean> {
    return this.flush(this.encode(text));
  }

  /**
   * Sends `prefix`, then `items` with `separator` between them: what write(prefix + items.join(separator)) sends,
   * without making that string. Joining thousands of rows built by concatenation copied each one twice, and cost as
   * much as encoding the text (a 40,000-card listing).
   */
  writeJoined(prefix: string, items: readonly string[], separator: string): Promise<boolean> {
    let flowing = this.encode(prefix);
    for (let i = 0; i < items.length && !this.out.destroyed; i++) {
      if (i > 0) flowing = this.encode(separator) && flowing;
      flowing = this.encode(items[i]) && flowing;
    }
    return this.flush(flowing);
  }

  /** Hands over the part-filled buffer too, then waits for a drain if the stream asked for one. */
  private async flush(flowing: boolean): Promise<boolean> {
    // Every buffer of the piece is handed over at once and the drain, when the stream asks for one, is awaited
    // once at the end: a wait per buffer cost a round trip with the client each (5% of a 100,000-row answer).
    let full = !flowing;
    if (this.used > 0) full = !this.send() || full;
    if (full) await waitForDrain(this.out);
    return !this.out.destroyed;
  }

  /** Sends `text` and ends the stream; resolves once it has flushed (or the client has gone). */
  async end(text = ''): Promise<void> {
    this.encode(text);
    const buffer = this.buffer;
    const used = this.used;
    this.buffer = null;
    this.used = 0;
    // The last bytes go with the end: one write fewer (and for a body of known length, its only write).
    if (buffer && !this.out.destroyed) this.out.write(buffer.subarray(0, used), () => this.pool.give(buffer));
    else if (buffer) this.pool.give(buffer);
    return endStream(this.out);
  }

  /** Encodes `text` into the current buffer, sending each buffer it fills; false when the stream asked for a drain. */
  private encode(text: string): boolean {
    if (text.length === 0) return !this.out.destroyed;
    if (this.out.destroyed) return this.release();
    this.buffer ??= this.pool.take();
    // Fits whatever its characters are (3 bytes each at most; a surrogate pair takes 4 for 2): one copy.
    if (text.length * 3 <= this.buffer.length - this.used) {
      this.used += this.buffer.write(text, this.used, 'utf8');
      return true;
    }
    let rest = text;
    let flowing = true;
    while (rest.length > 0) {
      if (this.out.destroyed) return this.release();
      this.buffer ??= this.pool.take();
      const { read, written } = utf8.encodeInto(rest, this.buffer.subarray(this.used));
      this.used += written;
      if (read === rest.length) break;
      // What did not fit (at least the one character that did not) goes into the next buffer.
      rest = rest.slice(read);
      flowing = this.send() && flowing;
    }
    return flowing;
  }

  /** Hands the current buffer to the stream; false when the stream asked for a drain (or has gone). */
  private send(): boolean {
    const buffer = this.buffer!;
    const used = this.used;
    this.buffer = null;
    this.used = 0;
    if (this.out.destroyed) {
      this.pool.give(buffer);
      return false;
    }
    // The callback runs once the bytes are written or dropped (a closed socket): only then may the buffer be reused.
    return this.out.write(buffer.subarray(0, used), () => this.pool.give(buffer));
  }

  /** Gives back a buffer that will not be sent (the client has gone). */
  private release(): false {
    if (this.buffer) this.pool.give(this.buffer);
    this.buffer = null;
    this.used = 0;
    return false;
  }
}
