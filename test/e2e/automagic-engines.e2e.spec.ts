import type { Engine } from '../../src/query-engine/execute/drivers';
import type { ServerDetails } from '../../src/query-engine/execute/drivers/details';
import { writeSampleDatabase } from '../../src/sample-data';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';
import { runXrayCards, type XrayDashboard } from '../support/automagic';

jest.setTimeout(600_000);

/**
 * The ORDERS, PEOPLE and PRODUCTS x-rays on the Sample Database written into each engine (DuckDB always; Postgres and
 * MariaDB when reachable, else left out with a message, a failure under CI): every card completes with rows.
 * (SQLite, the Sample Database as shipped, is covered by automagic.e2e.spec.ts.)
 */
describe('automagic dashboards on every engine', () => {
  let t: TestApp;
  let admin: string;
  const warehouses: E2eWarehouse[] = [];

  beforeAll(async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'false' });
    admin = await setupAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  it.each(availableEngines(['duckdb', 'postgres', 'mysql']).map((e) => [e]))('%s', async (engine: Engine) => {
    const wh = await e2eWarehouse(engine, t.config.dataDir);
    warehouses.push(wh);
    const target =
      engine === 'duckdb'
        ? { engine, file: wh.file as string }
        : { engine: engine as 'postgres' | 'mysql', details: wh.details as unknown as ServerDetails };
    await writeSampleDatabase(target as Parameters<typeof writeSampleDatabase>[0], { orders: 2000, replace: true });
    const db = (
      await t
        .http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Sample ${engine}`, details: wh.details })
        .expect(200)
    ).body.id as number;
    await waitForSync(t, admin, db);
    const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    for (const name of ['ORDERS', 'PEOPLE', 'PRODUCTS']) {
      const table = meta.tables.find((x: { name: string }) => x.name.toUpperCase() === name);
      const d = (await t.http().get(`/api/automagic-dashboards/table/${table.id}?show=all`).set(auth(admin)).expect(200))
        .body as XrayDashboard;
      expect({ engine, name, cards: d.dashcards.filter((dc) => dc.card).length > 2 }).toEqual({ engine, name, cards: true });
      await runXrayCards(t, admin, d);
    }
  });
});
