import { Writable } from 'node:stream';
import { BufferedOutput, OutputBufferPool } from './buffered-output';

/**
 * A socket-like sink that finishes each write later, as a socket does. It copies each chunk when given it, and checks
 * that the chunk's bytes are still the same when the write finishes: a buffer refilled before its write finished
 * (while a socket could still be reading it) counts as overwritten.
 */
function lazySink(highWaterMark = 16) {
  const copies: Buffer[] = [];
  const given: Buffer[] = [];
  let overwritten = 0;
  const out = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, done) {
      const copy = Buffer.from(chunk);
      copies.push(copy);
      given.push(chunk);
      setImmediate(() => {
        if (!chunk.equals(copy)) overwritten++;
        done();
      });
    },
  });
  const finished = new Promise<void>((resolve) => out.on('finish', resolve));
  return { out, given, finished, bytes: () => Buffer.concat(copies), overwritten: () => overwritten };
}

// Two-, three- and four-byte characters (é, €, a surrogate pair), placed to straddle small buffers' ends.
const PIECES = ['{"rows":[', 'plain ascii', 'é', 'x€y', 'a😀b', '€€€€€€€', '😀😀😀', '"é"]', 'z'.repeat(40)];

describe('BufferedOutput', () => {
  it.each([4, 5, 7, 16, 1024])('writes exactly the UTF-8 of its text through %i-byte buffers', async (size) => {
    const pool = new OutputBufferPool(size);
    const { out, finished, bytes, overwritten } = lazySink();
    const output = new BufferedOutput(out, pool);
    for (const piece of PIECES) expect(await output.write(piece)).toBe(true);
    await output.end('}');
    await finished;
    expect(bytes().equals(Buffer.from(`${PIECES.join('')}}`, 'utf8'))).toBe(true);
    expect(overwritten()).toBe(0);
  });

  it.each([4, 5, 7, 16, 1024])('writes items with separators as their join would be, through %i-byte buffers', async (size) => {
    const { out, finished, bytes, overwritten } = lazySink();
    const output = new BufferedOutput(out, new OutputBufferPool(size));
    expect(await output.writeJoined('[', PIECES, ',')).toBe(true);
    expect(await output.writeJoined(',', ['é€', '', '😀'], ',')).toBe(true);
    expect(await output.writeJoined('', [], ',')).toBe(true);
    await output.end(']');
    await finished;
    expect(bytes().toString('utf8')).toBe(`[${PIECES.join(',')},é€,,😀]`);
    expect(overwritten()).toBe(0);
  });

  it('reuses its buffers, each only once the stream has written it', async () => {
    const pool = new OutputBufferPool(8);
    const { out, given, finished, bytes, overwritten } = lazySink(64);
    const output = new BufferedOutput(out, pool);
    const text = Array.from({ length: 200 }, (_, i) => `row ${i};`).join('');
    // Each write resolves once handed over, often before the sink has finished it: the next piece is then encoded
    // while the previous buffer may still be read.
    for (let i = 0; i < text.length; i += 50) expect(await output.write(text.slice(i, i + 50))).toBe(true);
    await output.end();
    await finished;
    expect(bytes().toString()).toBe(text);
    expect(overwritten()).toBe(0);
    const distinct = new Set(given.map((c) => c.buffer));
    expect(distinct.size).toBeLessThan(given.length / 10);
    expect(pool.idle).toBe(distinct.size);
  });

  it('leaves a buffer out of the pool while its write is pending', async () => {
    const pool = new OutputBufferPool(8);
    let finish: () => void = () => undefined;
    const out = new Writable({ write: (_chunk, _enc, done) => (finish = done) });
    const output = new BufferedOutput(out, pool);
    void output.write('abc');
    await new Promise((r) => setImmediate(r));
    expect(pool.idle).toBe(0);
    finish();
    await new Promise((r) => setImmediate(r));
    expect(pool.idle).toBe(1);
  });

  it('answers false once the client has gone and keeps nothing back', async () => {
    const pool = new OutputBufferPool(8);
    const { out } = lazySink(1);
    const output = new BufferedOutput(out, pool);
    expect(await output.write('first')).toBe(true);
    out.destroy();
    expect(await output.write('x'.repeat(100))).toBe(false);
    await output.end('tail');
    await new Promise((r) => setImmediate(r));
    expect(pool.idle).toBe(1);
  });

  it('keeps at most its limit of buffers, and only buffers of its size', () => {
    const pool = new OutputBufferPool(8, 2);
    const taken = [pool.take(), pool.take(), pool.take()];
    taken.forEach((b) => pool.give(b));
    pool.give(Buffer.alloc(16));
    expect(pool.idle).toBe(2);
    expect(taken).toContain(pool.take());
  });
});
