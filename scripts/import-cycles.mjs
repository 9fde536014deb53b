#!/usr/bin/env node
// import-cycles.mjs DIR [--folders]: lists import cycles among the .ts files under DIR (type-only imports count: they tie
// files together too). With --folders, each file stands for its folder directly under DIR/modules (or under DIR, for files
// outside modules/), so it lists cycles between module folders. Prints each cycle; last line "N cycles".
// npm run lint runs it on src, by folder and by file: a cycle fails CI.
import fs from 'node:fs';
import path from 'node:path';
const args = process.argv.slice(2);
const byFolder = args.includes('--folders');
const root = path.resolve(args.find((a) => !a.startsWith('--')) || 'src');
const files = [];
(function walk(d) {
  for (const e of fs.readdirSync(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) walk(p);
    else if (/\.ts$/.test(e.name) && !/\.(spec|test)\.ts$/.test(e.name)) files.push(p);
  }
})(root);
const edges = new Map();
for (const f of files) {
  const src = fs.readFileSync(f, 'utf8');
  const out = new Set();
  for (const m of src.matchAll(/^\s*(?:import|export)\b[^'"`;]*?from\s*['"](\.[^'"]+)['"]/gm)) {
    let t = path.resolve(path.dirname(f), m[1]);
    for (const c of [t + '.ts', path.join(t, 'index.ts'), t])
      if (fs.existsSync(c) && c.endsWith('.ts')) {
        out.add(c);
        break;
      }
  }
  edges.set(f, out);
}
if (byFolder) {
  // a file's unit: src/modules/<name>, else the first folder under src (or the file itself at the top)
  const unit = (f) => {
    const rel = path.relative(root, f).split(path.sep);
    const n = rel[0] === 'modules' && rel.length > 2 ? 2 : 1;
    return path.join(root, ...rel.slice(0, Math.min(n, rel.length)));
  };
  const folded = new Map();
  for (const [f, out] of edges) {
    const u = unit(f);
    if (!folded.has(u)) folded.set(u, new Set());
    for (const t of out) if (unit(t) !== u) folded.get(u).add(unit(t));
  }
  edges.clear();
  files.length = 0;
  for (const [u, out] of folded) {
    edges.set(u, out);
    files.push(u);
  }
}
// Tarjan's strongly connected components
let idx = 0;
const st = [];
const on = new Set();
const index = new Map();
const low = new Map();
const sccs = [];
function sc(v) {
  index.set(v, idx);
  low.set(v, idx);
  idx++;
  st.push(v);
  on.add(v);
  for (const w of edges.get(v) || []) {
    if (!index.has(w)) {
      sc(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const comp = [];
    let w;
    do {
      w = st.pop();
      on.delete(w);
      comp.push(w);
    } while (w !== v);
    if (comp.length > 1) sccs.push(comp);
  }
}
for (const f of files) if (!index.has(f)) sc(f);
for (const c of sccs) console.log('cycle: ' + c.map((f) => path.relative(process.cwd(), f)).join(' <-> '));
console.log(`${sccs.length} cycles`);
process.exit(sccs.length ? 1 : 0);
