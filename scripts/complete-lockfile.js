#!/usr/bin/env node
/**
 * Run after changing dependencies (`npm install` then `node scripts/complete-lockfile.js`).
 *
 * The registry mirror here lacks the platform binaries of other systems (darwin, win32, arm64 builds of swc,
 * DuckDB, ...), so npm leaves them out of package-lock.json, and `npm ci` then refuses the lock as out of sync.
 * This adds the entries npm would have written (version, os, cpu, optional). `npm ci` skips them on a platform
 * they do not match, without fetching anything.
 */
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const lockPath = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'sunos', 'aix'];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'];
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p)) || (parts.includes('eabihf') || parts.includes('gnueabihf') ? 'arm' : undefined);
  return {
    os,
    cpu,
    libc:
      parts.includes('musl') || parts.includes('musleabihf')
        ? 'musl'
        : parts.includes('gnu') || parts.includes('gnueabihf')
          ? 'glibc'
          : undefined,
  };
}

let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  if (!where.startsWith('node_modules/')) continue;
  const manifestPath = path.join(root, where, 'package.json');
  if (!fs.existsSync(manifestPath)) continue;
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const optional = manifest.optionalDependencies || {};
  if (Object.keys(optional).length === 0) continue;
  entry.optionalDependencies = { ...optional };
  for (const [name, spec] of Object.entries(optional)) {
    const key = `node_modules/${name}`;
    const nested = `${where}/node_modules/${name}`;
    if (packages[key] || packages[nested]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform binary: a real optional dependency npm should resolve itself
    packages[key] = {
      version: spec.replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(os ? { os: [os] } : {}),
      ...(libc ? { libc: [libc] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} platform entries`);
