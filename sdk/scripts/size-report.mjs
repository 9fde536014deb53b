// Size of the built package (run `npm run build` first): gzip level 9 of each JS file of dist/, React not included
// (it is the host's peer dependency). Prints the "React SDK" section of bench/results.md.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const dir = new URL('../dist/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.js'));
const size = Object.fromEntries(files.map((f) => {
  const b = readFileSync(new URL(f, dir));
  return [f, { raw: b.length, gz: gzipSync(b, { level: 9 }).length }];
}));
// React stays out: no file may carry React's own internals.
for (const f of files) {
  if (readFileSync(new URL(f, dir), 'utf8').includes('__CLIENT_INTERNALS_DO_NOT_USE')) throw new Error(`${f} bundles React`);
}
const sum = (re) => Object.entries(size).filter(([f]) => re.test(f)).reduce((a, [, s]) => ({ raw: a.raw + s.raw, gz: a.gz + s.gz }), { raw: 0, gz: 0 });
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const rows = [
  ['Entry (provider, auth, components, no chart yet)', sum(/^index\.js$/)],
  ['Entry + a table question', sum(/^(index|Table|table-model|column|theme|rolldown-runtime)[-.]/)],
  ['Entry + a bar or line chart (ECharts core, SVG)', sum(/^(index|EChart|CartesianChart|NoResults|column|theme|rolldown-runtime)[-.]/)],
  ['Everything (all chart chunks, maps with their atlases)', sum(/./)],
];
const out = ['| What a page loads | minified | gzipped |', '|---|---|---|'];
for (const [what, s] of rows) out.push(`| ${what} | ${kb(s.raw)} | ${kb(s.gz)} |`);
out.push('', `${files.length} JS files; charts are lazy chunks loaded when a card of that display is drawn.`);
process.stdout.write(`${out.join('\n')}\n`);
