import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AppLogger } from '../logging/app-logger';
import { loadMallocTrim, startMallocTrim } from './malloc-trim';

const MB = 1048576;

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('malloc trim', () => {
  afterEach(() => jest.useRealTimers());

  it('gives back freed C heap pages that glibc keeps between live blocks', async () => {
    const trim = loadMallocTrim();
    expect(trim).not.toBeNull();
    // Freed 64 KB blocks with a live 1 KB block after each: glibc can return none of them by itself (only the top
    // of its heap), which is what Buffers of query results and downloads leave behind.
    let freed: Buffer[] = [];
    const kept: Buffer[] = [];
    for (let i = 0; i < 1500; i++) {
      freed.push(Buffer.allocUnsafeSlow(64 * 1024).fill(1));
      kept.push(Buffer.allocUnsafeSlow(1024).fill(1));
    }
    const allocated = process.memoryUsage.rss();
    freed = [];
    // V8 frees the blocks of collected Buffers on a background thread: trim until they have been freed and given back.
    let given = 0;
    for (let i = 0; i < 100 && given < 40; i++) {
      collectGarbage();
      await new Promise((r) => setImmediate(r));
      trim!();
      given = (allocated - process.memoryUsage.rss()) / MB;
    }
    expect(given).toBeGreaterThan(40);
    expect(kept.every((b) => b[0] === 1)).toBe(true);
  });

  it('trims at each interval until stopped, and never where the interval is 0 or there is no malloc_trim', () => {
    jest.useFakeTimers();
    const logger = new AppLogger('silent', 'memory');
    const trim = jest.fn(() => true);
    const stop = startMallocTrim(10, logger, () => trim);
    jest.advanceTimersByTime(9_999);
    expect(trim).not.toHaveBeenCalled();
    jest.advanceTimersByTime(20_001);
    expect(trim).toHaveBeenCalledTimes(3);
    stop();
    jest.advanceTimersByTime(60_000);
    expect(trim).toHaveBeenCalledTimes(3);

    const load = jest.fn(() => trim);
    startMallocTrim(0, logger, load)();
    expect(load).not.toHaveBeenCalled();
    const stopNone = startMallocTrim(10, logger, () => null);
    expect(jest.getTimerCount()).toBe(0);
    stopNone();
  });
});
