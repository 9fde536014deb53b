/**
 * The xray suite of `npm run bench`: the time to build the ORDERS x-ray (Sample Database metadata: ORDERS with the
 * fields of PRODUCTS and PEOPLE it links to) without running its cards: template choice, field matching and scoring,
 * cards, filters, layout and the dashboard answer. The builder is pure, so it is timed in-process, one build at a time.
 */
import * as os from 'node:os';
import { buildXray } from '../src/modules/automagic/dashboard-builder';
import { chooseTemplate } from '../src/modules/automagic/field-matching';
import { TEMPLATES } from '../src/modules/automagic/templates';
import { dashboardView } from '../src/modules/automagic/xray-view';
import { ordersRoot } from '../src/modules/automagic/xray-fixture';
import { median, percentile } from './http';

const RUNS = Number(process.env.BENCH_RUNS ?? 5000);
const WARMUP = 500;

function buildOnce(show: number | 'all' | null): number {
  const root = ordersRoot();
  const t0 = process.hrtime.bigint();
  const template = chooseTemplate(TEMPLATES.table, root.fields);
  const built = buildXray(root, template, { show, mayQuery: () => true });
  const view = dashboardView(built, { creatorId: 1, parameterSource: root.sourceTable, related: {}, moreUrl: null, transientName: built.name, transientFilters: null, paired: false });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (view.dashcards.length === 0) throw new Error('empty x-ray');
  return ms;
}

export async function xrayBench(): Promise<string> {
  const rows: string[] = [];
  for (const show of [null, 'all'] as const) {
    for (let i = 0; i < WARMUP; i++) buildOnce(show);
    const times = Array.from({ length: RUNS }, () => buildOnce(show));
    const root = ordersRoot();
    const cards = buildXray(root, chooseTemplate(TEMPLATES.table, root.fields), { show, mayQuery: () => true }).cards.length;
    rows.push(`| ${show === null ? 'default (15 cards at most)' : 'show=all'} | ${cards} | ${(median(times) * 1000).toFixed(0)} µs | ${(percentile(times, 95) * 1000).toFixed(0)} µs |`);
  }
  return [
    '## Building the ORDERS x-ray',
    '',
    `\`BENCH_SUITE=xray\`: the automatic dashboard of ORDERS built from its metadata (15 fields with those of the linked PRODUCTS and PEOPLE), without running its cards; ${RUNS} builds after ${WARMUP} warm-up ones, in-process (${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}). Over HTTP the metadata reads and permission checks come on top (a few app-DB queries).`,
    '',
    '| show | cards | median | p95 |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}
