#!/usr/bin/env node
/**
 * `npm run test:cluster`: three server processes on one fresh Postgres app DB behind HAProxy (health checks on
 * GET /api/health), as deployed. Checks that
 * - a session made through one instance works on all;
 * - a setting, a permission and a card changed through one are seen through the others within a second (and
 *   measures how long the cluster notification takes);
 * - under a steady load of 50 clients (queries, card and dashboard reads, downloads; one more writing cards), an
 *   instance killed with SIGKILL fails only requests in flight on it (counted), another restarted with SIGTERM
 *   drains without failing any, and no card written before the kill is lost.
 * Writes its figures into the Cluster section of bench/results.md. Exits non-zero when a check fails, and when
 * HAProxy or Postgres is missing under CI (otherwise it says so and skips).
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');

const ROOT = path.resolve(__dirname, '..');
const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLIENTS = 50;
const ADMIN = { email: 'cluster@example.com', password: 'Cluster-pass-2026' };
const CI = Boolean(process.env.CI);

const log = (msg) => process.stdout.write(`[cluster] ${msg}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const failures = [];
function check(ok, what) {
  log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

function findHaproxy() {
  for (const p of [process.env.HAPROXY, '/usr/sbin/haproxy', '/usr/local/sbin/haproxy', '/usr/bin/haproxy'])
    if (p && fs.existsSync(p)) return p;
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** One HTTP request; never rejects: answers { status (0 on a network error), body, error, server }. */
function request(base, method, route, { session, json, form, timeoutMs = 60_000 } = {}) {
  const payload = json !== undefined ? JSON.stringify(json) : form !== undefined ? new URLSearchParams(form).toString() : undefined;
  const headers = {
    ...(json !== undefined
      ? { 'Content-Type': 'application/json' }
      : form !== undefined
        ? { 'Content-Type': 'application/x-www-form-urlencoded' }
        : {}),
    ...(session ? { 'X-Metabase-Session': session } : {}),
  };
  return new Promise((resolve) => {
    const req = http.request(base + route, { method, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let body = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          // CSV and the like stay text.
        }
        resolve({ status: res.statusCode, body, server: res.headers['x-served-by'] ?? null, bytes: text.length });
      });
      res.on('error', (e) => resolve({ status: 0, error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ status: 0, error: e.message }));
    req.end(payload);
  });
}

async function until(check, ms, what) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await sleep(10);
  }
}

class Instance {
  constructor(name, port, env, logDir) {
    Object.assign(this, { name, port, env, logDir, proc: null, url: `http://127.0.0.1:${port}` });
  }

  async start() {
    const out = fs.openSync(path.join(this.logDir, `${this.name}.log`), 'a');
    this.proc = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
      env: { ...this.env, PORT: String(this.port) },
      stdio: ['ignore', out, out],
    });
    this.exited = new Promise((resolve) => this.proc.on('exit', (code, signal) => resolve({ code, signal })));
    fs.closeSync(out);
    await until(
      async () => (await request(this.url, 'GET', '/api/health', { timeoutMs: 2_000 })).status === 200 || this.proc.exitCode !== null,
      90_000,
      `${this.name} up`,
    );
    if (this.proc.exitCode !== null) throw new Error(`${this.name} exited with ${this.proc.exitCode}; see ${this.logDir}/${this.name}.log`);
  }

  kill(signal) {
    this.proc.kill(signal);
    return this.exited;
  }
}

function haproxyConfig(lbPort, statsPort, instances) {
  return `global
  maxconn 2000
defaults
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout queue 30s
  # A refused or reset connection is tried again, on another server (redispatch). Requests that may change data
  # are not re-sent once they reached a server: a POST in flight on a killed instance fails (and is counted).
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  # One request per server connection: a draining instance then never sees a request on an idle kept-alive
  # connection it is about to close.
  option http-server-close
frontend lb
  bind 127.0.0.1:${lbPort}
  http-request disable-l7-retry unless METH_GET || METH_HEAD
  default_backend app
backend app
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  http-response set-header X-Served-By %s
  # A health check may wait 3 s: under this load (and on a shared 2-core machine) a busy instance can be slow to
  # answer one, and a short check timeout marked all three down at once. A dead one is noticed sooner: its
  # refused connections count as errors (observe layer4) and fail checks at once. No shutdown-sessions when
  # marked down: a slow check must not cut the requests a live instance is answering.
  timeout check 3s
  default-server inter 1s fastinter 250ms downinter 500ms fall 3 rise 2 observe layer4 error-limit 3 on-error fail-check
${instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`).join('\n')}
listen stats
  bind 127.0.0.1:${statsPort}
  stats enable
  stats uri /stats
`;
}

async function serverStates(statsUrl) {
  const res = await request(statsUrl, 'GET', '/stats;csv');
  const rows = String(res.body)
    .split('\n')
    .map((l) => l.split(','));
  const header = rows[0].map((h) => h.replace(/^# /, ''));
  const col = (n) => header.indexOf(n);
  const out = {};
  for (const r of rows.slice(1))
    if (r[col('pxname')] === 'app' && r[col('svname')] && !['FRONTEND', 'BACKEND'].includes(r[col('svname')]))
      out[r[col('svname')]] = { status: r[col('status')], scur: Number(r[col('scur')]) };
  return out;
}

async function main() {
  const started = Date.now();
  const haproxy = findHaproxy();
  if (!haproxy) {
    const msg = 'HAProxy not found (looked for $HAPROXY, /usr/sbin/haproxy, PATH); install it with `apt-get install haproxy`';
    if (CI) throw new Error(msg);
    log(`SKIPPED: ${msg}`);
    return;
  }
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (e) {
    if (CI) throw e;
    log(`SKIPPED: Postgres not reachable at ${PG_ADMIN_URL} (${e.message})`);
    return;
  }
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-if-needed.js')], { cwd: ROOT, stdio: 'inherit' });

  const dbName = `cluster_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${dbName}`);
  const dbUrl = new URL(PG_ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-cluster-'));
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    DATA_DIR: path.join(work, 'data'),
    DATABASE_URL: dbUrl.toString(),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    LOAD_SAMPLE_DATABASE: 'true',
    SYNC_CHECK_SECONDS: '0',
    SHUTDOWN_DRAIN_SECONDS: '15',
    // Health checks fail this long before the listener closes: HAProxy stops sending first (see haproxyConfig).
    SHUTDOWN_DELAY_SECONDS: '4',
    LOG_LEVEL: 'info',
    // Longer than any pause here: a change seen within a second can only have come through the cluster bus.
    SETTINGS_REFRESH_SECONDS: '3600',
    MAX_QUERIES_PER_USER: '100',
  };
  const instances = [];
  for (const name of ['s1', 's2', 's3']) instances.push(new Instance(name, await freePort(), env, work));
  const lbPort = await freePort();
  const statsPort = await freePort();
  const lb = `http://127.0.0.1:${lbPort}`;
  const statsUrl = `http://127.0.0.1:${statsPort}`;
  let haproxyProc = null;
  const figures = {};
  let completed = false;
  try {
    log(`app DB ${dbName}; logs in ${work}`);
    await instances[0].start(); // migrates, creates the admin, claims the Sample Database
    await Promise.all(instances.slice(1).map((i) => i.start()));
    log(`3 instances up after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    fs.writeFileSync(path.join(work, 'haproxy.cfg'), haproxyConfig(lbPort, statsPort, instances));
    haproxyProc = spawn(haproxy, ['-db', '-f', path.join(work, 'haproxy.cfg')], {
      stdio: ['ignore', fs.openSync(path.join(work, 'haproxy.log'), 'a'), fs.openSync(path.join(work, 'haproxy.log'), 'a')],
    });
    await until(
      async () => {
        try {
          const s = await serverStates(statsUrl);
          return Object.values(s).length === 3 && Object.values(s).every((x) => x.status === 'UP');
        } catch {
          return false;
        }
      },
      30_000,
      'HAProxy sees 3 servers UP',
    );

    // A session made through the load balancer works on every instance.
    const login = await request(lb, 'POST', '/api/session', { json: { username: ADMIN.email, password: ADMIN.password } });
    if (login.status !== 200) throw new Error(`login through the LB: ${login.status} ${JSON.stringify(login.body)}`);
    const session = login.body.id;
    const onEach = await Promise.all(instances.map((i) => request(i.url, 'GET', '/api/user/current', { session })));
    check(
      onEach.every((r) => r.status === 200),
      `a session made through the LB works on all 3 instances (${onEach.map((r) => r.status).join(', ')})`,
    );

    // The Sample Database, loaded once by one instance.
    let dbId;
    await until(
      async () => {
        const list = await request(lb, 'GET', '/api/database', { session });
        dbId = list.body?.data?.find((d) => d.name === 'Sample Database')?.id;
        return dbId !== undefined;
      },
      60_000,
      'Sample Database',
    );

    await changesSeenEverywhere(instances, session, dbId, figures);

    // Content for the load: a card and a dashboard.
    const native = (sql) => ({ database: dbId, type: 'native', native: { query: sql } });
    const card = await request(lb, 'POST', '/api/card', {
      session,
      json: {
        name: 'Cluster card',
        display: 'table',
        visualization_settings: {},
        dataset_query: native('SELECT CATEGORY, COUNT(*) AS n FROM PRODUCTS GROUP BY CATEGORY'),
      },
    });
    if (card.status !== 200) throw new Error(`card: ${card.status} ${JSON.stringify(card.body).slice(0, 200)}`);
    const dash = await request(lb, 'POST', '/api/dashboard', { session, json: { name: 'Cluster dashboard' } });
    await request(lb, 'PUT', `/api/dashboard/${dash.body.id}`, {
      session,
      json: {
        dashcards: [
          { id: -1, card_id: card.body.id, row: 0, col: 0, size_x: 8, size_y: 4, parameter_mappings: [], visualization_settings: {} },
        ],
      },
    });

    await loadWithFailover({ lb, statsUrl, instances, session, cardId: card.body.id, dashId: dash.body.id, native, figures });
    completed = true;
  } finally {
    if (haproxyProc) haproxyProc.kill('SIGTERM');
    await Promise.all(instances.filter((i) => i.proc && i.proc.exitCode === null).map((i) => i.kill('SIGTERM')));
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    if (completed && failures.length === 0) fs.rmSync(work, { recursive: true, force: true });
  }
  figures.runtimeS = (Date.now() - started) / 1000;
  writeResults(figures);
  log(`done in ${figures.runtimeS.toFixed(0)} s`);
}

/** A setting, a permission and a card changed through s1, seen through s2 and s3; and the notification's latency. */
async function changesSeenEverywhere(instances, session, dbId, figures) {
  const [a, ...others] = instances;
  const listener = new Client({ connectionString: instances[0].env.DATABASE_URL });
  await listener.connect();
  const notes = [];
  listener.on('notification', (n) => notes.push({ at: performance.now(), payload: n.payload }));
  await listener.query('LISTEN analytics_cluster');
  try {
    const notifyMs = [];
    const seenMs = [];
    const seenOn = async (what, probe) => {
      const t0 = performance.now();
      await until(async () => (await Promise.all(others.map(probe))).every(Boolean), 1_000, what).catch((e) => check(false, e.message));
      const ms = performance.now() - t0;
      seenMs.push(ms);
      return ms;
    };

    for (let i = 0; i < 5; i++) {
      const value = `Cluster Co ${i}`;
      const sent = performance.now();
      const put = await request(a.url, 'PUT', '/api/setting/site-name', { session, json: { value } });
      if (put.status !== 204) throw new Error(`setting: ${put.status}`);
      await until(() => notes.some((n) => n.at >= sent && n.payload.includes('"settings"')), 1_000, 'settings notification');
      notifyMs.push(notes.find((n) => n.at >= sent && n.payload.includes('"settings"')).at - sent);
      const ms = await seenOn('setting', async (o) => (await request(o.url, 'GET', '/api/setting/site-name', { session })).body === value);
      if (i === 0) check(ms < 1_000, `a setting changed through s1 is seen through s2 and s3 after ${ms.toFixed(0)} ms (< 1 s)`);
    }
    figures.notifyMs = notifyMs;
    figures.settingSeenMs = seenMs.slice();

    const email = `perm-${randomBytes(3).toString('hex')}@example.com`;
    const user = await request(a.url, 'POST', '/api/user', {
      session,
      json: { email, password: 'Perm-pass-2026x', first_name: 'P', last_name: 'M' },
    });
    const userSession = (await request(a.url, 'POST', '/api/session', { json: { username: email, password: 'Perm-pass-2026x' } })).body.id;
    const before = await request(others[0].url, 'GET', '/api/permissions/group', { session: userSession });
    await request(a.url, 'POST', '/api/permissions/membership', { session, json: { group_id: 2, user_id: user.body.id } });
    const permMs = await seenOn(
      'permission',
      async (o) => (await request(o.url, 'GET', '/api/permissions/group', { session: userSession })).status === 200,
    );
    check(
      before.status === 403 && permMs < 1_000,
      `a permission granted through s1 holds on s2 and s3 after ${permMs.toFixed(0)} ms (< 1 s)`,
    );
    figures.permissionSeenMs = permMs;

    const card = await request(a.url, 'POST', '/api/card', {
      session,
      json: {
        name: 'Before',
        display: 'table',
        visualization_settings: {},
        dataset_query: { database: dbId, type: 'native', native: { query: 'SELECT 1' } },
      },
    });
    const cardId = card.body?.id;
    check(Boolean(cardId), `a card made through s1 (${card.status})`);
    if (cardId) {
      await Promise.all(others.map((o) => request(o.url, 'GET', `/api/card/${cardId}`, { session })));
      await request(a.url, 'PUT', `/api/card/${cardId}`, { session, json: { name: 'After' } });
      const cardMs = await seenOn(
        'card',
        async (o) => (await request(o.url, 'GET', `/api/card/${cardId}`, { session })).body?.name === 'After',
      );
      check(cardMs < 1_000, `a card renamed through s1 reads renamed on s2 and s3 after ${cardMs.toFixed(0)} ms (< 1 s)`);
      figures.cardSeenMs = cardMs;
    }
    const med = [...notifyMs].sort((x, y) => x - y)[Math.floor(notifyMs.length / 2)];
    check(
      med < 100,
      `notification latency (PUT sent → NOTIFY received by a listener): median ${med.toFixed(1)} ms,` +
        ` max ${Math.max(...notifyMs).toFixed(1)} ms (target < 100 ms)`,
    );
  } finally {
    await listener.end();
  }
}

/**
 * 50 clients in loops through the LB plus one writing cards; s2 is killed (SIGKILL) and started again, then s3
 * is stopped with SIGTERM (drain) and started again.
 */
async function loadWithFailover({ lb, statsUrl, instances, session, cardId, dashId, native, figures }) {
  const [, s2, s3] = instances;
  const results = [];
  const written = [];
  let running = true;
  const kinds = [
    { name: 'query', method: 'POST', route: '/api/dataset', json: native('SELECT STATE, COUNT(*) AS n FROM PEOPLE GROUP BY STATE') },
    { name: 'card query', method: 'POST', route: `/api/card/${cardId}/query` },
    { name: 'card read', method: 'GET', route: `/api/card/${cardId}` },
    { name: 'dashboard read', method: 'GET', route: `/api/dashboard/${dashId}` },
    { name: 'download', method: 'POST', route: `/api/card/${cardId}/query/csv` },
    {
      name: 'big download',
      method: 'POST',
      route: '/api/dataset/csv',
      form: { query: JSON.stringify(native('SELECT * FROM ORDERS LIMIT 3000')) },
    },
  ];
  const client = async (n) => {
    for (let i = n; running; i++) {
      const k = kinds[i % kinds.length];
      const t0 = Date.now();
      const r = await request(lb, k.method, k.route, { session, json: k.json, form: k.form });
      results.push({ kind: k.name, method: k.method, t0, t1: Date.now(), status: r.status, error: r.error, server: r.server });
      await sleep(r.status === 0 || r.status >= 500 ? 100 : 50); // think time; and no tight loop of failures
    }
  };
  const writer = async () => {
    for (let i = 0; running; i++) {
      const t0 = Date.now();
      const r = await request(lb, 'POST', '/api/collection', { session, json: { name: `Written ${i}`, color: '#509EE3' } });
      results.push({ kind: 'write', method: 'POST', t0, t1: Date.now(), status: r.status, error: r.error, server: r.server });
      if (r.status === 200) written.push(r.body.id);
      await sleep(50);
    }
  };
  const loops = [...Array.from({ length: CLIENTS }, (_, n) => client(n)), writer()];
  await sleep(8_000);

  // SIGKILL s2.
  const states = await serverStates(statsUrl);
  const killAt = Date.now();
  const writtenBeforeKill = [...written];
  s2.proc.kill('SIGKILL');
  await s2.exited;
  const deadAt = Date.now(); // requests sent between killAt and here may have reached s2 too
  figures.killedScur = states.s2?.scur ?? null;
  await until(async () => (await serverStates(statsUrl)).s2?.status.startsWith('DOWN'), 10_000, 'HAProxy marks s2 down');
  figures.markedDownMs = Date.now() - killAt;
  await sleep(2_000);
  await s2.start();
  await until(async () => (await serverStates(statsUrl)).s2?.status === 'UP', 20_000, 's2 back UP');
  const backAt = Date.now();
  await sleep(3_000);

  // SIGTERM s3: it drains; then it starts again.
  const termAt = Date.now();
  const exit = await s3.kill('SIGTERM');
  const drainedAt = Date.now();
  figures.drain = { code: exit.code, ms: drainedAt - termAt };
  await s3.start();
  await until(async () => (await serverStates(statsUrl)).s3?.status === 'UP', 20_000, 's3 back UP');
  await sleep(3_000);
  running = false;
  await Promise.all(loops);

  const failed = results.filter((r) => r.status === 0 || r.status >= 500);
  const aroundKill = failed.filter((r) => r.t0 <= deadAt && r.t1 >= killAt && r.t1 <= backAt);
  for (const r of failed)
    if (process.env.CLUSTER_VERBOSE)
      log(
        `failed: ${r.kind} ${r.status || r.error} sent ${r.t0 - killAt} ms after the kill,` +
          ` ended ${r.t1 - killAt} ms after (s2 dead at ${deadAt - killAt} ms)`,
      );
  const otherFailures = failed.filter((r) => !aroundKill.includes(r));
  const byKind = {};
  for (const r of results) {
    byKind[r.kind] ??= { n: 0, failed: 0 };
    byKind[r.kind].n++;
    if (r.status === 0 || r.status >= 500) byKind[r.kind].failed++;
  }
  figures.load = {
    total: results.length,
    failed: failed.length,
    aroundKill: aroundKill.length,
    other: otherFailures.length,
    byKind,
    killedKinds: aroundKill.map((r) => r.kind),
  };
  const nonServerErrors = results.filter((r) => r.status >= 400 && r.status < 500);
  check(
    nonServerErrors.length === 0,
    `no 4xx under load (${nonServerErrors.length}${
      nonServerErrors.length
        ? `: ${nonServerErrors
            .slice(0, 3)
            .map((r) => `${r.kind} ${r.status}`)
            .join(', ')}`
        : ''
    })`,
  );
  log(`load: ${results.length} requests, ${failed.length} failed; s2 had ${figures.killedScur} sessions open just before the kill`);
  check(
    otherFailures.length === 0,
    `no request failed except those in flight on the killed instance (${aroundKill.length} in flight at the kill failed:` +
      ` ${aroundKill.map((r) => r.kind).join(', ') || 'none'};` +
      ` others: ${otherFailures.map((r) => `${r.kind} ${r.status || r.error}`).join(', ') || 'none'})`,
  );
  // HAProxy's count of s2's sessions is read before the kill; requests sent while the signal lands reach s2 too.
  check(
    aroundKill.every((r) => r.method !== 'GET' && r.t1 <= deadAt + 2_000),
    `the ${aroundKill.length} failed requests were all POSTs sent before s2 died and ended by` +
      ` ${Math.max(0, ...aroundKill.map((r) => r.t1 - killAt))} ms after the kill (GETs in flight were retried elsewhere)`,
  );
  const drainFailures = failed.filter((r) => r.t1 >= termAt && r.t0 <= drainedAt + 1_000);
  figures.drain.failed = drainFailures.length;
  check(
    exit.code === 0 && drainFailures.length === 0,
    `SIGTERM'd s3 drained in ${figures.drain.ms} ms, exit code ${exit.code}, failing ${drainFailures.length} requests`,
  );
  const missing = [];
  for (const id of writtenBeforeKill) if ((await request(lb, 'GET', `/api/collection/${id}`, { session })).status !== 200) missing.push(id);
  figures.written = { beforeKill: writtenBeforeKill.length, total: written.length, missing: missing.length };
  check(
    missing.length === 0 && writtenBeforeKill.length > 0,
    `all ${writtenBeforeKill.length} collections written before the kill are there (${missing.length} missing);` +
      ` ${written.length} written in all`,
  );
}

function writeResults(f) {
  const file = path.join(ROOT, 'bench', 'results.md');
  const med = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const fmt = (x) => (x === undefined ? 'n/a' : `${x.toFixed(1)} ms`);
  const kinds = Object.entries(f.load?.byKind ?? {})
    .map(([k, v]) => `${k} ${v.n}${v.failed ? ` (${v.failed} failed)` : ''}`)
    .join(', ');
  const text = [
    '## Cluster (`npm run test:cluster`)',
    '',
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores (shared with other work while measured).` +
      ' 3 instances on one Postgres app DB behind HAProxy ' +
      '(health checks on GET /api/health every 1 s, 3 s timeout, down after 3 failures; retries with redispatch,' +
      ' GET/HEAD retried on an empty response, one request per server connection; SIGTERM: health 503 for 4 s, then drain).',
    '',
    '- Notification latency (PUT of a setting sent → NOTIFY received by a listener on the app DB; includes the request):' +
      ` median ${fmt(f.notifyMs && med(f.notifyMs))}, max ${fmt(f.notifyMs && Math.max(...f.notifyMs))}` +
      ` over ${f.notifyMs?.length ?? 0} changes.`,
    "- Seen through the other two instances (from the PUT's answer until a read through each shows it; includes those reads):" +
      ` setting median ${fmt(f.settingSeenMs && med(f.settingSeenMs))}, permission ${fmt(f.permissionSeenMs)},` +
      ` card ${fmt(f.cardSeenMs)}. Settings polling was set to an hour: only the notification can explain these.`,
    `- Load: ${CLIENTS} clients + 1 writer, ${f.load?.total ?? 0} requests (${kinds}).` +
      ` SIGKILL of s2: ${f.load?.aroundKill ?? '?'} requests failed, all in flight on it` +
      ` (s2 had ${f.killedScur ?? '?'} sessions open just before; HAProxy marked it down after ${f.markedDownMs ?? '?'} ms);` +
      ` other failures: ${f.load?.other ?? '?'}.`,
    `- SIGTERM of s3 (rolling restart): drained in ${f.drain?.ms ?? '?'} ms, exit code ${f.drain?.code ?? '?'},` +
      ` ${f.drain?.failed ?? '?'} requests failed.`,
    `- Data: ${f.written?.beforeKill ?? '?'} collections written before the kill, ${f.written?.missing ?? '?'} missing afterwards.`,
    `- Result: ${failures.length === 0 ? 'all checks passed' : `FAILED: ${failures.join('; ')}`};` +
      ` runtime ${f.runtimeS?.toFixed(0) ?? '?'} s.`,
  ].join('\n');
  const open = '<!-- suite:cluster -->';
  const close = '<!-- /suite:cluster -->';
  const block = `${open}\n${text}\n${close}`;
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = old.indexOf(open);
  const end = old.indexOf(close);
  fs.writeFileSync(
    file,
    start >= 0 && end > start ? `${old.slice(0, start)}${block}${old.slice(end + close.length)}` : `${old.trimEnd()}\n\n${block}\n`,
  );
  log(text);
}

main().then(
  () => process.exit(failures.length ? 1 : 0),
  (e) => {
    failures.push(String(e));
    log(`FAILED: ${e.stack ?? e}`);
    process.exit(1);
  },
);
