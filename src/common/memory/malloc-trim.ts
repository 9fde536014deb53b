import type { AppLogger } from '../logging/app-logger';

/** Gives the free pages of the C heap back to the OS; answers whether any were. */
export type TrimFn = () => boolean;

/**
 * glibc's malloc_trim, or null where there is none (musl, macOS, Windows). koffi calls it without a compiled addon
 * of our own. With another allocator preloaded (LD_PRELOAD) this is still glibc's: it finds its arenas empty.
 */
export function loadMallocTrim(): TrimFn | null {
  if (process.platform !== 'linux') return null;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only where a trim is wanted and possible
    const koffi = require('koffi') as typeof import('koffi');
    const trim = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
    return () => trim(0) === 1;
  } catch {
    return null;
  }
}

/**
 * Every `intervalSeconds`, hands the memory freed in glibc's heap back to the OS. The backing stores of short-lived
 * Buffers (query results, downloads, request bodies) are malloc'd and freed in glibc's main arena, which keeps freed
 * pages mapped and returns only the top of its heap: after the bench's series of workloads the server kept up to
 * 89 MB over idle for good, 73 MB of it free in that heap, and at most 21 MB with this (bench/results.md, memory). A
 * trim took 0.2 to 4 ms there, under load too; a page given back and used again costs a page fault. Answers a stop.
 */
export function startMallocTrim(intervalSeconds: number, logger: AppLogger, load: () => TrimFn | null = loadMallocTrim): () => void {
  if (intervalSeconds <= 0) return () => undefined;
  const trim = load();
  if (!trim) {
    logger.debug('malloc_trim is not available here: the C heap keeps what it frees', { platform: process.platform });
    return () => undefined;
  }
  const timer = setInterval(() => {
    const before = process.memoryUsage.rss();
    const started = performance.now();
    const trimmed = trim();
    if (trimmed && logger.debugEnabled()) {
      logger.debug('Gave freed C heap memory back', {
        freed_mb: Math.round((before - process.memoryUsage.rss()) / 1048576),
        took_ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  }, intervalSeconds * 1000);
  // Never the reason the process stays up.
  timer.unref();
  return () => clearInterval(timer);
}
