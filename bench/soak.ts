/**
 * The soak suite of `npm run bench`: one instance (SQLite app DB, the Sample Database as warehouse) under a fixed
 * request rate for SOAK_MINUTES (default 10): queries, card and dashboard reads, CSV downloads, health checks. The
 * server samples its RSS and event-loop delay every 10 s (bench/soak-probe.ts). Reports RSS at the end against
 * RSS after the warm-up (SOAK_WARMUP_MINUTES, default 1): a leak shows as steady growth.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ADMIN, api, log, login, percentile, ROOT, startServer, stopServer } from './http';

const RATE = Number(process.env.SOAK_RATE ?? 10);
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? 1);

interface Sample {
  at: number;
  rss: number;
  heapUsed: number;
  elMean: number;
  elP99: number;
  elMax: number;
}

export async function soakBench(): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'analytics-bench-soak-'));
  const probeFile = path.join(dataDir, 'probe.jsonl');
  const server = await startServer(dataDir, {
    LOAD_SAMPLE_DATABASE: 'true',
    NODE_OPTIONS: `--require ${path.join(ROOT, 'dist', 'bench', 'soak-probe.js')}`,
    SOAK_PROBE_FILE: probeFile,
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  try {
    const admin = await login(server.url, ADMIN);
    let db: number | undefined;
    for (let i = 0; i < 300 && db === undefined; i++) {
      const list = (await api(server.url, admin, 'GET', '/api/database')).json as { data: Array<{ id: number; name: string }> };
      db = list.data.find((d) => d.name === 'Sample Database')?.id;
      if (db === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    if (db === undefined) throw new Error('the Sample Database did not appear');
    const native = (sql: string) => ({ database: db, type: 'native', native: { query: sql } });
    const card = await api(server.url, admin, 'POST', '/api/card', {
      name: 'Soak card',
      display: 'table',
      visualization_settings: {},
      dataset_query: native('SELECT CATEGORY, COUNT(*) AS n FROM PRODUCTS GROUP BY CATEGORY'),
    });
    if (card.status !== 200) throw new Error(`card: ${JSON.stringify(card.json).slice(0, 300)}`);
    const cardId = (card.json as { id: number }).id;
    const dash = (await api(server.url, admin, 'POST', '/api/dashboard', { name: 'Soak dashboard' })).json as { id: number };
    await api(server.url, admin, 'PUT', `/api/dashboard/${dash.id}`, {
      dashcards: [{ id: -1, card_id: cardId, row: 0, col: 0, size_x: 8, size_y: 4, parameter_mappings: [], visualization_settings: {} }],
    });

    // One request kind per tick, in turn: the mix stays the same whatever the rate.
    const kinds: Array<{ name: string; method: string; route: string; body?: unknown; form?: string }> = [
      {
        name: 'query',
        method: 'POST',
        route: '/api/dataset',
        body: native(
          'SELECT STATE, COUNT(*) AS n, SUM(TOTAL) AS total FROM ORDERS JOIN PEOPLE ON PEOPLE.ID = ORDERS.USER_ID GROUP BY STATE',
        ),
      },
      { name: 'card query', method: 'POST', route: `/api/card/${cardId}/query` },
      { name: 'card read', method: 'GET', route: `/api/card/${cardId}` },
      { name: 'dashboard read', method: 'GET', route: `/api/dashboard/${dash.id}` },
      { name: 'download', method: 'POST', route: `/api/card/${cardId}/query/csv` },
      { name: 'health', method: 'GET', route: '/api/health' },
      { name: 'query', method: 'POST', route: '/api/dataset', body: native('SELECT * FROM PRODUCTS ORDER BY ID LIMIT 200') },
      { name: 'session', method: 'GET', route: '/api/user/current' },
    ];
    const latencies: number[] = [];
    const errors = new Map<string, number>();
    let sent = 0;
    let done = 0;
    const fire = (k: (typeof kinds)[number]) => {
      sent++;
      const started = performance.now();
      const payload = k.body === undefined ? undefined : JSON.stringify(k.body);
      const req = http.request(
        server.url + k.route,
        { method: k.method, agent, headers: { 'Content-Type': 'application/json', 'X-Metabase-Session': admin } },
        (res) => {
          res.resume();
          res.on('end', () => {
            done++;
            latencies.push(performance.now() - started);
            if ((res.statusCode ?? 0) >= 400)
              errors.set(`${k.name} ${res.statusCode}`, (errors.get(`${k.name} ${res.statusCode}`) ?? 0) + 1);
          });
        },
      );
      req.on('error', (e) => errors.set(`${k.name} ${e.message}`, (errors.get(`${k.name} ${e.message}`) ?? 0) + 1));
      req.end(payload);
    };
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    log(`soak: ${RATE} requests/s for ${MINUTES} min (warm-up ${WARMUP_MINUTES} min)`);
    let tick = 0;
    await new Promise<void>((resolve) => {
      // Fixed rate, open loop: the schedule does not wait for answers (a slower server gets the same load).
      const timer = setInterval(() => {
        const due = Math.floor(((Date.now() - started) / 1000) * RATE);
        while (tick < due) fire(kinds[tick++ % kinds.length]);
        if (Date.now() >= end) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
    });
    const drainUntil = Date.now() + 30_000;
    while (done + [...errors.values()].reduce((a, b) => a + b, 0) < sent && Date.now() < drainUntil)
      await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 11_000)); // one more sample after the last request
    const samples = fs
      .readFileSync(probeFile, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Sample);
    const afterWarmup = samples.find((s) => s.at >= started + WARMUP_MINUTES * 60_000) ?? samples[0];
    const last = samples.filter((s) => s.at <= end + 5_000).pop() ?? samples[samples.length - 1];
    const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
    const growth = ((last.rss - afterWarmup.rss) / afterWarmup.rss) * 100;
    const loaded = samples.filter((s) => s.at > started && s.at <= end + 5_000);
    const failed = [...errors.entries()].map(([k, n]) => `${k}: ${n}`).join(', ') || 'none';
    log(`soak: rss ${mb(afterWarmup.rss)} -> ${mb(last.rss)} MB (${growth.toFixed(1)}%), failed: ${failed}`);
    const rows = loaded.map(
      (s) => `| ${Math.round((s.at - started) / 1000)} | ${mb(s.rss)} | ${mb(s.heapUsed)} | ${s.elMean} | ${s.elP99} | ${s.elMax} |`,
    );
    return [
      '## Soak (one instance, fixed request rate)',
      '',
      `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}.` +
        ` SQLite app DB, Sample Database (SQLite) as warehouse. ${RATE} requests/s for ${MINUTES} min, open loop, ` +
        'in turn: native query (join + group), card query, card read, dashboard read, card CSV download, health,' +
        ' 200-row query, current user. Samples every 10 s from inside the server.',
      '',
      `- Requests: ${sent} sent, ${done} answered; failed: ${failed}.` +
        ` Latency p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms.`,
      `- RSS after the ${WARMUP_MINUTES}-min warm-up: ${mb(afterWarmup.rss)} MB; at the end: ${mb(last.rss)} MB:` +
        ` **${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%** (target within 10%: ${Math.abs(growth) <= 10 ? 'met' : 'NOT met'}).`,
      `- Event-loop delay under load: worst p99 of an interval ${Math.max(...loaded.map((s) => s.elP99))} ms,` +
        ` worst max ${Math.max(...loaded.map((s) => s.elMax))} ms,` +
        ` mean of means ${(loaded.reduce((a, s) => a + s.elMean, 0) / Math.max(1, loaded.length)).toFixed(2)} ms.`,
      '',
      '<details><summary>Samples</summary>',
      '',
      '| s | RSS MB | heap MB | loop delay mean ms | p99 ms | max ms |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      '</details>',
    ].join('\n');
  } finally {
    agent.destroy();
    await stopServer(server.proc);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
