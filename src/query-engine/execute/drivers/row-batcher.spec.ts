import { RowBatcher } from './row-batcher';

describe('RowBatcher', () => {
  const source = () => {
    const s = { paused: false, pauses: 0, pause: () => ((s.paused = true), s.pauses++), resume: () => (s.paused = false) };
    return s;
  };

  it('hands out full batches, then the rest, pausing the source while a full batch waits', async () => {
    const s = source();
    const b = new RowBatcher(s, 2);
    b.add([1]);
    expect(s.paused).toBe(false);
    b.add([2]);
    expect(s.paused).toBe(true);
    b.add([3]);
    b.end();
    expect(await b.next()).toEqual([[1], [2]]);
    expect(s.paused).toBe(false);
    expect(await b.next()).toEqual([[3]]);
    expect(await b.next()).toBeNull();
  });

  it('wakes a waiting consumer when rows arrive, and throws the error after the rows before it', async () => {
    const b = new RowBatcher(source(), 2);
    const waiting = b.next();
    b.add([1]);
    b.add([2]);
    expect(await waiting).toEqual([[1], [2]]);
    b.add([3]);
    b.add([4]);
    b.fail(new Error('connection lost'));
    expect(await b.next()).toEqual([[3], [4]]);
    await expect(b.next()).rejects.toThrow('connection lost');
  });

  it('drops what arrives after discardRest and lets the source run on', async () => {
    const s = source();
    const b = new RowBatcher(s, 1);
    b.add([1]);
    expect(s.paused).toBe(true);
    b.discardRest();
    expect(s.paused).toBe(false);
    b.add([2]);
    b.end();
    expect(await b.next()).toBeNull();
  });
});
