#!/usr/bin/env node
/**
 * `npm test`: every jest project this machine can run. The e2e tests run on the SQLite app DB and again on
 * Postgres. Without a reachable Postgres the Postgres project is skipped with a message, unless CI is set:
 * then a missing Postgres fails the run.
 */
const { spawnSync } = require('node:child_process');
const { Client } = require('pg');

const PG_URL = process.env.TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false';

async function reachable() {
  const c = new Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch (e) {
    return e.message;
  } finally {
    await c.end().catch(() => {});
  }
}

(async () => {
  const projects = ['sqlite'];
  const pg = await reachable();
  if (pg === true) projects.push('postgres');
  else if (inCI) {
    console.error(`Postgres at ${PG_URL} is not reachable (${pg}); CI requires it.`);
    process.exit(1);
  } else {
    console.warn(
      `SKIPPED: the Postgres app-DB tests, because Postgres at ${PG_URL} is not reachable (${pg}). Set TEST_PG_URL to run them.`,
    );
  }
  // The built server and pages, once, before the test files that spawn or serve them start in parallel.
  const paths = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (paths.length === 0 || paths.some((p) => /test\/(process|web)/.test(p))) {
    const built = spawnSync(process.execPath, [require('node:path').join(__dirname, 'build-if-needed.js')], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  // --selectProjects takes several values, so it goes last or it would swallow test paths.
  const args = ['jest', ...process.argv.slice(2), '--selectProjects', ...projects];
  // Three workers on CI's two cores: a test file spends much of its time waiting on Postgres, MariaDB or Chromium,
  // which a third file fills (a CI run's jest went from 21.8 to 13.8 minutes). TEST_WORKERS overrides.
  const workers = process.env.TEST_WORKERS || '3';
  if (!process.argv.some((a) => a.startsWith('--maxWorkers') || a === '-i' || a === '--runInBand')) args.push(`--maxWorkers=${workers}`);
  const r = spawnSync('npx', args, { stdio: 'inherit', env: process.env });
  process.exit(r.status ?? 1);
})();
