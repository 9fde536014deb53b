import { LogEntry, LogRingBuffer } from './log-ring-buffer';

const entry = (msg: string): LogEntry => ({
  timestamp: '2026-01-01T00:00:00.000Z',
  level: 'INFO',
  fqns: 'app',
  msg,
  exception: null,
  process_uuid: 'p',
});

describe('LogRingBuffer', () => {
  it('answers newest first before it is full', () => {
    const buffer = new LogRingBuffer(3);
    ['a', 'b'].forEach((m) => buffer.push(entry(m)));
    expect(buffer.recent().map((e) => e.msg)).toEqual(['b', 'a']);
  });

  it('keeps only the newest entries once it wraps, in order', () => {
    const buffer = new LogRingBuffer(3);
    ['a', 'b', 'c', 'd', 'e'].forEach((m) => buffer.push(entry(m)));
    expect(buffer.recent().map((e) => e.msg)).toEqual(['e', 'd', 'c']);
    ['f', 'g', 'h'].forEach((m) => buffer.push(entry(m)));
    expect(buffer.recent().map((e) => e.msg)).toEqual(['h', 'g', 'f']);
  });
});
