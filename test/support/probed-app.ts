import { MetricsService } from '../../src/modules/observability/metrics.service';
import { e2eWarehouse } from './e2e-warehouses';
import { auth, setupAdmin } from './factories';
import { pgProbe } from './pg-probe';
import { waitForIdle } from './sync-runs';
import { startTestApp } from './test-app';

/**
 * An app with a Postgres warehouse whose queries a test can hold at a gate and count on the database (pg-probe.ts),
 * for tests of how queries wait: `ask` sends native SQL through POST /api/dataset, `diagnostics` reads
 * connection_pool_info as the admin, `metrics` the Prometheus text (pass METRICS_PORT to have it served).
 */
export async function probedApp(env: Record<string, string>) {
  const t = await startTestApp(env);
  const admin = await setupAdmin(t);
  const wh = await e2eWarehouse('postgres', t.config.dataDir);
  const db = (
    await t.http().post('/api/database').set(auth(admin)).send({ engine: 'postgres', name: 'Probed', details: wh.details }).expect(200)
  ).body.id as number;
  await waitForIdle(t, db);
  const probe = await pgProbe(wh);
  const ask = (session: string, sql: string) =>
    t
      .http()
      .post('/api/dataset')
      .set(auth(session))
      .send({ database: db, type: 'native', native: { query: sql } });
  const diagnostics = async () => (await t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin)).expect(200)).body;
  const metrics = async () => (await fetch(`http://127.0.0.1:${t.app.get(MetricsService).port()}/metrics`)).text();
  const close = async () => {
    await probe.end();
    await t.close();
    await wh.drop();
  };
  return { t, admin, wh, db, probe, ask, diagnostics, metrics, close };
}

export type ProbedApp = Awaited<ReturnType<typeof probedApp>>;
