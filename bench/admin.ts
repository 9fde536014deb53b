/**
 * The admin suite of `npm run bench`: how soon the admin console's heaviest pages show their content at size.
 * The built server (its own process, SQLite app DB) holds 10,000 people (rows written straight into its app DB:
 * through the API each would cost a password hash) and 50 groups by 20 databases (made through the API: small SQLite
 * files). Headless Chromium, signed in as the admin by its session cookie, opens each page BENCH_ADMIN_RUNS times in
 * a fresh browser context (cold browser cache) after one warm-up load. "First render" is the time from navigation
 * start until the page's content is on screen: the first page of people, or every row of the permissions grid.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser } from 'playwright-core';
import { ADMIN, agent, api, DATA, log, login, median, percentile, startServer, stopServer } from './http';

const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 10);
const PEOPLE = 10_000;
const GROUPS = 50;
const DATABASES = 20;

/** A page to open and the condition (run in the page) that says its content has rendered. */
interface Target {
  name: string;
  path: string;
  rendered: string;
}

export async function adminBench(): Promise<string> {
  const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => p && fs.existsSync(p));
  if (!executablePath) throw new Error('the admin suite needs Chromium (apt-get install chromium, or set CHROMIUM_PATH)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-admin-'));
  // The warehouses' files must lie under the server's ALLOWED_FILE_DIRS (bench/data).
  fs.mkdirSync(DATA, { recursive: true });
  const warehouses = fs.mkdtempSync(path.join(DATA, 'admin-warehouses-'));
  const server = await startServer(dataDir, {});
  const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
  try {
    const admin = await login(server.url, ADMIN);
    insertPeople(path.join(dataDir, 'app.db'));
    await makeGroups(server.url, admin);
    const firstDb = await makeDatabases(server.url, admin, warehouses);
    const targets: Target[] = [
      {
        name: `/admin/people with ${PEOPLE.toLocaleString('en-US')} people (first page of the list)`,
        path: '/admin/people',
        rendered: `document.querySelectorAll('table[aria-label="People"] tbody tr').length > 0`,
      },
      {
        name: `Permissions grid, one database by ${GROUPS + 2} groups`,
        path: `/admin/permissions/data/database/${firstDb}`,
        rendered: `document.querySelectorAll('section[aria-labelledby="access-title"] tbody tr').length >= ${GROUPS}`,
      },
    ];
    const rows: Array<{ target: Target; times: number[] }> = [];
    for (const target of targets) {
      await open(browser, server.url, admin, target); // warm-up
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await open(browser, server.url, admin, target));
      log(`admin: ${target.path} median ${median(times).toFixed(0)} ms`);
      rows.push({ target, times });
    }
    return report(rows);
  } finally {
    await browser.close();
    await stopServer(server.proc);
    agent.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(warehouses, { recursive: true, force: true });
  }
}

/** One load in a fresh context, signed in by cookie: ms from navigation start until `rendered` holds. */
async function open(browser: Browser, url: string, session: string, target: Target): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies([{ name: 'metabase.SESSION', value: session, url }]);
  const page = await context.newPage();
  await page.goto(url + target.path);
  await page.waitForFunction(target.rendered, undefined, { timeout: 60_000, polling: 'raf' });
  const ms = (await page.evaluate('performance.now()')) as number;
  await context.close();
  return ms;
}

/** People as the API makes them (active, in All Users), written in one transaction into the server's SQLite app DB. */
function insertPeople(appDb: string): void {
  const db = new Database(appDb);
  try {
    db.pragma('busy_timeout = 10000');
    const allUsers = (db.prepare(`SELECT id FROM permissions_group WHERE name = 'All Users'`).get() as { id: number }).id;
    const user = db.prepare(
      `INSERT INTO core_user (email, first_name, last_name, password_hash, type) VALUES (?, ?, ?, 'not-a-password-hash', 'personal')`,
    );
    const member = db.prepare(`INSERT INTO permissions_group_membership (user_id, group_id, is_group_manager) VALUES (?, ?, 0)`);
    db.transaction(() => {
      for (let i = 1; i <= PEOPLE; i++) {
        const n = String(i).padStart(5, '0');
        const { lastInsertRowid } = user.run(`person-${n}@example.com`, 'Person', n);
        member.run(lastInsertRowid, allUsers);
      }
    })();
  } finally {
    db.close();
  }
}

async function makeGroups(url: string, admin: string): Promise<void> {
  for (let i = 1; i <= GROUPS; i++) {
    const r = await api(url, admin, 'POST', '/api/permissions/group', { name: `Team ${String(i).padStart(2, '0')}` });
    if (r.status !== 200) throw new Error(`group ${i}: ${JSON.stringify(r.json)}`);
  }
}

/** Small SQLite warehouses added through the API; the first one's id. */
async function makeDatabases(url: string, admin: string, dir: string): Promise<number> {
  const ids: number[] = [];
  for (let i = 1; i <= DATABASES; i++) {
    const file = path.join(dir, `w${i}.db`);
    const db = new Database(file);
    db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    const name = `Warehouse ${String(i).padStart(2, '0')}`;
    const r = await api(url, admin, 'POST', '/api/database', { name, engine: 'sqlite', details: { db: file } });
    if (r.status !== 200) throw new Error(`database ${i}: ${JSON.stringify(r.json)}`);
    ids.push((r.json as { id: number }).id);
  }
  return ids[0];
}

function report(rows: Array<{ target: Target; times: number[] }>): string {
  return [
    '## Admin console at size (issue 34)',
    '',
    `Headless Chromium opens each page ${RUNS} times, each in a fresh browser context (cold browser cache, signed in by`,
    `cookie) after one warm-up load. First render: from navigation start until the content is on screen (the first page`,
    'of people; every group row of the grid). The server runs as `npm start` does (SQLite app DB); people are written',
    `straight into the app DB, groups and databases made through the API. Run on ${os.cpus().length} cores,`,
    `${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg()[0].toFixed(1)} when it ended.`,
    '',
    '| Page | First render p50 | p95 |',
    '|---|---:|---:|',
    ...rows.map(({ target, times }) => `| ${target.name} | ${median(times).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms |`),
  ].join('\n');
}
