/**
 * `npm run bench`: every benchmark suite, or those named in BENCH_SUITE (comma-separated: `query`, `content`, `dashboard`,
 * `download`, `embed`, `floor`, `upload`, `xray`, `rss`, `start`, `burst`, `crowd`, `admin`,
 * `dashboards`, `policy`; `soak`: 10 minutes, only when named).
 * Each suite rewrites its own section of bench/results.md and leaves the others' figures as they were.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adminBench } from './admin';
import { burstBench } from './burst';
import { contentBench } from './content';
import { crowdBench } from './crowd';
import { dashboardBench } from './dashboard';
import { dashboardCrowdBench } from './dashboard-crowd';
import { downloadBench } from './download';
import { embedBench } from './embed';
import { floorBench } from './floor';
import { policyBench } from './policy';
import { ROOT } from './http';
import { queryOverheadBench } from './query-overhead';
import { rssSeriesBench } from './rss-series';
import { webBench } from './web';
import { soakBench } from './soak';
import { startBench } from './start';
import { uploadBench } from './upload';
import { xrayBench } from './xray';

const SUITES: Record<string, () => Promise<string>> = {
  query: queryOverheadBench,
  content: contentBench,
  dashboard: dashboardBench,
  download: downloadBench,
  embed: embedBench,
  floor: floorBench,
  upload: uploadBench,
  xray: xrayBench,
  rss: rssSeriesBench,
  start: startBench,
  soak: soakBench,
  web: webBench,
  burst: burstBench,
  crowd: crowdBench,
  admin: adminBench,
  dashboards: dashboardCrowdBench,
  policy: policyBench,
};
const RESULTS = path.join(ROOT, 'bench', 'results.md');

async function main(): Promise<void> {
  const wanted = (
    process.env.BENCH_SUITE ??
    Object.keys(SUITES)
      .filter((s) => s !== 'soak')
      .join(',')
  )
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of wanted) {
    if (!SUITES[name]) throw new Error(`unknown BENCH_SUITE ${name}; known: ${Object.keys(SUITES).join(', ')}`);
    const section = await SUITES[name]();
    writeSection(name, section);
    process.stdout.write(`${section}\n`);
  }
}

function writeSection(name: string, text: string): void {
  const open = `<!-- suite:${name} -->`;
  const close = `<!-- /suite:${name} -->`;
  const block = `${open}\n${text.trimEnd()}\n${close}`;
  const old = fs.existsSync(RESULTS) ? fs.readFileSync(RESULTS, 'utf8') : '';
  const start = old.indexOf(open);
  const end = old.indexOf(close);
  const body = old.startsWith('# Benchmarks')
    ? old
    : '# Benchmarks\n\nWritten by `npm run bench` (BENCH_SUITE picks suites); each suite rewrites its own section.\n';
  const next =
    start >= 0 && end > start ? `${old.slice(0, start)}${block}${old.slice(end + close.length)}` : `${body.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(RESULTS, next);
}

main().catch((e: unknown) => {
  process.stderr.write(`Benchmark failed: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
