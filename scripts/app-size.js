#!/usr/bin/env node
/**
 * The application's JavaScript and CSS weight, gzipped, from the Vite manifest of its build
 * (web/dist/.vite/app-manifest.json; `npm run build:web` first): what every page loads (app.html's entry and what it
 * imports), then each lazily loaded area on top of that, and the sign-in page's total. Prints a Markdown table.
 * `--json` prints the figures as JSON instead.
 */
const fs = require('node:fs');
const path = require('node:path');
const { gzipSync } = require('node:zlib');

const dist = path.resolve(__dirname, '..', 'web', 'dist');
const manifestFile = path.join(dist, '.vite', 'app-manifest.json');
if (!fs.existsSync(manifestFile)) {
  console.error(`${path.relative(process.cwd(), manifestFile)} is missing: run npm run build:web`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
const gz = (file) => gzipSync(fs.readFileSync(path.join(dist, file))).length;

/** The files a chunk brings with it: its own, its CSS, and those of its static imports. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return new Set();
  seen.add(key);
  const files = new Set([chunk.file, ...(chunk.css ?? [])]);
  for (const dep of chunk.imports ?? []) for (const f of closure(dep, seen)) files.add(f);
  return files;
}

const sum = (files, ext) => [...files].filter((f) => f.endsWith(ext)).reduce((n, f) => n + gz(f), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const shell = closure(entryKey);
const areas = Object.keys(manifest)
  .filter((k) => manifest[k].isDynamicEntry)
  .map((k) => {
    const extra = new Set([...closure(k)].filter((f) => !shell.has(f)));
    return { area: k.replace(/^src\/app\//, ''), js: sum(extra, '.js'), css: sum(extra, '.css') };
  })
  .sort((a, b) => a.area.localeCompare(b.area));
const login = areas.find((a) => a.area === 'auth/LoginPage.tsx');
const figures = {
  shell: { js: sum(shell, '.js'), css: sum(shell, '.css') },
  signIn: { js: sum(shell, '.js') + (login?.js ?? 0), css: sum(shell, '.css') + (login?.css ?? 0) },
  areas,
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(figures, null, 2));
} else {
  const rows = [
    '| Chunk (gzipped) | JavaScript | CSS |',
    '|---|---:|---:|',
    `| Shell: app.html's entry and its imports (every page) | ${kb(figures.shell.js)} | ${kb(figures.shell.css)} |`,
    `| Sign-in page in all (shell + auth/LoginPage) | ${kb(figures.signIn.js)} | ${kb(figures.signIn.css)} |`,
    ...areas.map((a) => `| + ${a.area} | ${kb(a.js)} | ${kb(a.css)} |`),
  ];
  console.log(rows.join('\n'));
}
