/**
 * The start suite of `npm run bench`: cold start and idle memory of the server as `npm start` runs it, on the
 * SQLite app DB with the Sample Database (targets, issue 22: start under 1.5 s, idle RSS under 150 MB). The first
 * start writes the Sample Database and is not counted; BENCH_STARTS more follow on the same data directory.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { log, startServer, stopServer } from './http';

const STARTS = Number(process.env.BENCH_STARTS ?? 4);
/** How long after start-up the idle figures are read: the Sample Database is synced and the heap has settled. */
const IDLE_AFTER_MS = [3_000, 10_000];

interface Start {
  ms: number;
  rssMb: number[];
}

function rssMb(pid: number): number {
  const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : NaN;
}

async function oneStart(dataDir: string): Promise<Start> {
  const t0 = performance.now();
  const server = await startServer(dataDir, { LOAD_SAMPLE_DATABASE: 'true' });
  const ms = performance.now() - t0;
  const rss: number[] = [];
  try {
    let waited = 0;
    for (const at of IDLE_AFTER_MS) {
      await new Promise((r) => setTimeout(r, at - waited));
      waited = at;
      rss.push(rssMb(server.proc.pid!));
    }
  } finally {
    await stopServer(server.proc);
  }
  return { ms, rssMb: rss };
}

export async function startBench(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-start-'));
  try {
    log('start: writing the Sample Database (first start, not counted)');
    await oneStart(dataDir);
    const starts: Start[] = [];
    for (let i = 1; i <= STARTS; i++) {
      starts.push(await oneStart(dataDir));
      log(`start ${i}: ${starts[i - 1].ms.toFixed(0)} ms, RSS ${starts[i - 1].rssMb.map((r) => r.toFixed(0)).join(' / ')} MB`);
    }
    const range = (xs: number[], digits = 0) => `${Math.min(...xs).toFixed(digits)}-${Math.max(...xs).toFixed(digits)}`;
    const ms = starts.map((s) => s.ms);
    const idle = starts.map((s) => s.rssMb[s.rssMb.length - 1]);
    return [
      '## Start-up and idle memory',
      '',
      `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${os.cpus().length} cores, Node ${process.version}).`,
      `The server as \`npm start\` runs it (SQLite app DB, the Sample Database connected), started ${STARTS} times on one data`,
      'directory after a first start that wrote the Sample Database. Start: from spawning the process to its `url` log line.',
      `RSS: VmRSS ${IDLE_AFTER_MS.map((x) => `${x / 1000} s`).join(' and ')} after that, with no request.`,
      '',
      '| start (s) | idle RSS, each start (MB) | target |',
      '|---|---|---|',
      `| ${range(
        ms.map((x) => x / 1000),
        2,
      )} | ${starts.map((s) => s.rssMb.map((r) => r.toFixed(0)).join(' / ')).join('; ')} |` +
        ` start ${Math.max(...ms) < 1500 ? 'met' : 'missed'} (< 1.5 s);` +
        ` idle RSS ${Math.max(...idle) < 150 ? 'met' : 'missed'} (< 150 MB, ${range(idle)}) |`,
    ].join('\n');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
