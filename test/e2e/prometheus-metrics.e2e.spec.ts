import { MetricsService } from '../../src/modules/observability/metrics.service';
import { QueryCacheService } from '../../src/modules/query-cache/query-cache.service';
import { makeCard, nativeQuery } from '../support/card-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

jest.setTimeout(90_000);

/** One sample of a scrape: name, labels and value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(l);
      if (!m) throw new Error(`not a sample line: ${l}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
      return { name: m[1], labels, value: Number(m[3]) };
    });
}

/** Prometheus metrics on METRICS_PORT: request, query, cache, pool, sync and process series with their labels. */
describe('Prometheus metrics', () => {
  let t: TestApp;
  let admin: string;
  let db: number;
  let wh: E2eWarehouse;
  let base: string;
  const scrape = async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  const find = (samples: Sample[], name: string, labels: Record<string, string>) =>
    samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

  beforeAll(async () => {
    t = await startTestApp({ METRICS_PORT: '0', HOST: '127.0.0.1' });
    base = `http://127.0.0.1:${t.app.get(MetricsService).port()}`;
    admin = await setupAdmin(t);
    wh = await e2eWarehouse('sqlite', t.config.dataDir, {
      statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)', 'INSERT INTO t VALUES (1), (2), (3)'],
    });
    db = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Metrics', details: wh.details }).expect(200)
    ).body.id;
    await waitForIdle(t, db);
  });
  afterAll(async () => {
    await t.close();
    await wh.drop();
  });

  it('times requests by route pattern and status, never by the raw path', async () => {
    await t.http().get('/api/health').expect(200);
    await t.http().get('/api/card/987654').set(auth(admin)).expect(404);
    await t.http().get('/api/no-such-endpoint/secret-token-abc').expect(404);
    await t.http().get('/api/embed/card/eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl').expect(400);
    // Answered before routing (a body that does not parse): timed too, with no route.
    await t.http().post('/api/card').set(auth(admin)).set('Content-Type', 'application/json').send('{"name":').expect(400);
    const text = await scrape();
    const samples = parse(text);
    const count = (labels: Record<string, string>) => find(samples, 'analytics_http_request_duration_seconds_count', labels)?.value ?? 0;
    expect(count({ method: 'GET', route: '/api/health', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(count({ method: 'GET', route: '/api/card/:id', status: '404' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/embed/card/:token', status: '400' })).toBe(1);
    expect(count({ method: 'POST', route: '/api/database', status: '200' })).toBe(1);
    expect(count({ method: 'POST', route: 'unmatched', status: '400' })).toBe(1);
    expect(find(samples, 'analytics_http_request_duration_seconds_bucket', { route: '/api/health', le: '+Inf' })).toBeDefined();
    // Neither tokens nor ids of the raw URLs reach a label.
    expect(text).not.toContain('secret-token-abc');
    expect(text).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(text).not.toContain('987654');
  });

  it('times query runs by engine and outcome, and counts cache hits and misses', async () => {
    await t.http().post('/api/dataset').set(auth(admin)).send(nativeQuery(db, 'SELECT count(*) AS n FROM t')).expect(202);
    const failed = await t.http().post('/api/dataset').set(auth(admin)).send(nativeQuery(db, 'SELECT * FROM no_such_table')).expect(202);
    expect(failed.body.status).toBe('failed');
    await t.http().put('/api/setting/enable-query-caching').set(auth(admin)).send({ value: true }).expect(204);
    await t.http().put('/api/setting/query-caching-min-ttl').set(auth(admin)).send({ value: 0 }).expect(204);
    const card = await makeCard(t, admin, nativeQuery(db, 'SELECT count(*) AS cached_n FROM t'), { cache_ttl: 60 });
    await t.http().post(`/api/card/${card.id}/query`).set(auth(admin)).expect(202);
    await t.app.get(QueryCacheService).flush();
    expect((await t.http().post(`/api/card/${card.id}/query`).set(auth(admin)).expect(202)).body.cached).toBe(true);

    const samples = parse(await scrape());
    const runs = (outcome: string) => find(samples, 'analytics_query_duration_seconds_count', { engine: 'sqlite', outcome })?.value;
    expect(runs('completed')).toBeGreaterThanOrEqual(2); // the ad-hoc query and the card's first run; the hit is no run
    expect(runs('failed')).toBe(1);
    expect(find(samples, 'analytics_query_duration_seconds_bucket', { engine: 'sqlite', outcome: 'completed', le: '+Inf' })).toBeDefined();
    expect(find(samples, 'analytics_query_cache_lookups_total', { result: 'miss' })?.value).toBe(1);
    expect(find(samples, 'analytics_query_cache_lookups_total', { result: 'hit' })?.value).toBe(1);
  });

  it('shows every connection pool with busy and idle connections, waiters and size', async () => {
    const samples = parse(await scrape());
    for (const pool of ['app-db', `db-${db}`]) {
      expect(find(samples, 'analytics_connection_pool_connections', { pool, state: 'busy' })).toBeDefined();
      expect(find(samples, 'analytics_connection_pool_connections', { pool, state: 'idle' })).toBeDefined();
      expect(find(samples, 'analytics_connection_pool_waiters', { pool })?.value).toBe(0);
      expect(find(samples, 'analytics_connection_pool_max', { pool })?.value).toBeGreaterThanOrEqual(1);
    }
  });

  it('counts sync runs by kind and outcome', async () => {
    await t.http().post(`/api/database/${db}/sync_schema`).set(auth(admin)).expect(200);
    // The sync on connecting, and this one.
    await until(
      async () =>
        (find(parse(await scrape()), 'analytics_sync_run_duration_seconds_count', { kind: 'metadata', outcome: 'succeeded' })?.value ??
          0) >= 2,
    );
  });

  it("has the process's heap, RSS and event-loop delay, and answers 404 off /metrics", async () => {
    const names = new Set(parse(await scrape()).map((s) => s.name));
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names).toContain(name);
    }
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});

describe('metrics without METRICS_PORT', () => {
  it('measure nothing and listen nowhere', async () => {
    const t = await startTestApp();
    try {
      const metrics = t.app.get(MetricsService);
      expect(metrics.enabled).toBe(false);
      expect(metrics.port()).toBeNull();
      await t.http().get('/api/health').expect(200);
      expect(await metrics.scrape()).toBe('');
    } finally {
      await t.close();
    }
  });
});
