/**
 * Loaded into the server by the soak suite (`node --require dist/bench/soak-probe.js`): every SOAK_PROBE_MS it
 * appends one JSON line to SOAK_PROBE_FILE with the process's RSS, heap and the event-loop delay of the interval
 * (a fresh histogram each time) and the count of full (mark-compact) collections so far. Measured inside, since only
 * the process itself sees its event loop and its collections.
 */
import * as fs from 'node:fs';
import { constants, monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const every = Number(process.env.SOAK_PROBE_MS ?? 10_000);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let majorGcs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majorGcs++;
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const mem = process.memoryUsage();
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const sample = {
      at: Date.now(),
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      elMean: ms(delay.mean),
      elP99: ms(delay.percentile(99)),
      elMax: ms(delay.max),
      majorGcs,
    };
    fs.appendFileSync(file, `${JSON.stringify(sample)}\n`);
    delay.reset();
  }, every).unref();
}
