#!/usr/bin/env node
/**
 * `npm start` builds first when dist/ is missing or older than the sources, so a fresh clone just starts.
 * `--clean` (npm run build) always removes dist/ and builds from scratch, so no output of a deleted source lingers.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const entry = path.join(root, 'dist', 'src', 'main.js');

function newest(dir) {
  let latest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) latest = Math.max(latest, newest(p));
    else if (e.name.endsWith('.ts')) latest = Math.max(latest, fs.statSync(p).mtimeMs);
  }
  return latest;
}

/**
 * The web pages (web/, served from web/dist): the application (app.html) and the public and embed pages (index.html),
 * rebuilt with Vite when either is missing or older than their sources (any file under web/src, the HTML entries, the
 * Vite config). `--web` builds only them (the browser tests use it).
 */
function buildWebIfNeeded() {
  const webDir = path.join(root, 'web');
  const outputs = ['index.html', 'app.html'].map((f) => path.join(webDir, 'dist', f));
  if (!fs.existsSync(path.join(webDir, 'src'))) return;
  const newestWeb = (dir) =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((m, e) => {
      const p = path.join(dir, e.name);
      return Math.max(m, e.isDirectory() ? newestWeb(p) : fs.statSync(p).mtimeMs);
    }, 0);
  const inputs = ['index.html', 'app.html', 'vite.config.mts', 'vite.app.config.mts', 'tsconfig.json']
    .map((f) => path.join(webDir, f))
    .filter((f) => fs.existsSync(f));
  const latest = Math.max(newestWeb(path.join(webDir, 'src')), ...inputs.map((f) => fs.statSync(f).mtimeMs));
  if (outputs.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs >= latest)) return;
  console.log('Building the web pages...');
  // NODE_ENV=production whoever calls (jest sets it to test, which would give React's development build).
  for (const config of ['web/vite.config.mts', 'web/vite.app.config.mts']) {
    execSync(`npx vite build --config ${config} --logLevel warn`, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}

/**
 * One build at a time on this checkout: test files that need the built server or pages (run in parallel by jest)
 * would otherwise compile into the same directories at once. The others wait, then find the build fresh.
 */
function withLock(work) {
  const lock = path.join(root, '.build-lock');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      // A lock older than the deadline is a crashed build's.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`another build holds ${lock}`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

withLock(() => {
  buildWebIfNeeded();
  if (!process.argv.includes('--web')) buildServerIfNeeded();
});

/** The server (dist/), when missing or older than its sources; always with --clean. */
function buildServerIfNeeded() {
  const clean = process.argv.includes('--clean');
  const srcDir = path.join(root, 'src');
  if (!fs.existsSync(srcDir)) return; // a runtime image ships dist/ only
  const sources = [srcDir, path.join(root, 'bench')].filter((d) => fs.existsSync(d));
  if (!clean && fs.existsSync(entry) && fs.statSync(entry).mtimeMs >= Math.max(...sources.map(newest))) return;
  if (clean) fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });

  console.log('Building...');
  execSync('npx tsc -p tsconfig.build.json', { cwd: root, stdio: 'inherit' });
  let hash = null;
  try {
    hash = execSync('git rev-parse --short HEAD', { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    /* not a git checkout */
  }
  fs.writeFileSync(path.join(root, 'dist', 'build-info.json'), JSON.stringify({ date: new Date().toISOString().slice(0, 10), hash }));
}
