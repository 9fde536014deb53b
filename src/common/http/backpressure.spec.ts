import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { endStream, firstEvent, writeChunk } from './backpressure';

/** A socket-like stream that takes one chunk at a time and needs draining after each. */
function slowSink() {
  const written: string[] = [];
  const out = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _enc, done) {
      written.push(chunk.toString());
      setImmediate(done);
    },
  });
  return { out, written };
}

describe('writeChunk', () => {
  it('waits for each drain without leaving listeners behind', async () => {
    const { out, written } = slowSink();
    const before = { close: out.listenerCount('close'), error: out.listenerCount('error'), drain: out.listenerCount('drain') };
    for (let i = 0; i < 50; i++) expect(await writeChunk(out, `chunk ${i}`)).toBe(true);
    expect({ close: out.listenerCount('close'), error: out.listenerCount('error'), drain: out.listenerCount('drain') }).toEqual(before);
    await endStream(out);
    expect(written).toHaveLength(50);
    expect(out.listenerCount('close')).toBe(before.close);
  });

  it('answers false once the client has gone, also while waiting for a drain', async () => {
    const { out } = slowSink();
    const waiting = writeChunk(out, 'x'.repeat(10));
    out.destroy();
    expect(await waiting).toBe(false);
    expect(await writeChunk(out, 'more')).toBe(false);
  });
});

describe('firstEvent', () => {
  it('resolves on the first event of any emitter and removes every listener it added', async () => {
    const a = new EventEmitter();
    const b = new EventEmitter();
    const waiting = firstEvent([a, 'drain'], [a, 'close'], [b, 'close']);
    expect([a.listenerCount('drain'), a.listenerCount('error'), b.listenerCount('close'), b.listenerCount('error')]).toEqual([1, 1, 1, 1]);
    b.emit('close');
    await waiting;
    expect([
      a.listenerCount('drain'),
      a.listenerCount('close'),
      a.listenerCount('error'),
      b.listenerCount('close'),
      b.listenerCount('error'),
    ]).toEqual([0, 0, 0, 0, 0]);
  });

  it('rejects with the error of any emitter, and leaves no listener either', async () => {
    const a = new EventEmitter();
    const waiting = firstEvent([a, 'drain']);
    a.emit('error', new Error('reset'));
    await expect(waiting).rejects.toThrow('reset');
    expect(a.listenerCount('drain') + a.listenerCount('error')).toBe(0);
  });
});
