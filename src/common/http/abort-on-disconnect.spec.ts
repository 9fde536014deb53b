import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import { abortOnDisconnect } from './abort-on-disconnect';

function response(): EventEmitter & { writableFinished: boolean } {
  return Object.assign(new EventEmitter(), { writableFinished: false });
}

describe('abortOnDisconnect', () => {
  it('aborts when the connection closes before the answer is written', () => {
    const res = response();
    const signal = abortOnDisconnect(res as unknown as Response);
    expect(signal.aborted).toBe(false);
    res.emit('close');
    expect(signal.aborted).toBe(true);
  });

  it('leaves the signal alone when the connection closes after the whole answer went out', () => {
    const res = response();
    const signal = abortOnDisconnect(res as unknown as Response);
    res.writableFinished = true;
    res.emit('close');
    expect(signal.aborted).toBe(false);
  });
});
