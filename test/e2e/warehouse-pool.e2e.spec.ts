import { SecretBox } from '../../src/common/crypto/secret-box';
import { createDriver, type WarehouseDriver } from '../../src/query-engine/execute/drivers';
import { DatabasesRepository } from '../../src/modules/databases/databases.repository';
import { openDetails } from '../../src/modules/warehouse/database-details';
import { WarehouseConnections } from '../../src/modules/warehouse/warehouse-connections';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { until } from '../support/until';

/** Runs until cancelled (the Sample Database is SQLite). */
const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c';
const POOL_TIMEOUT = /^Timed out waiting for a connection from the pool \(waited [\d.]+ seconds?\)\.$/;

describe('a warehouse whose connection pool has no free connection', () => {
  let s: SampleApp;
  let admin: string;
  /** The Sample Database behind a one-connection pool that gives up waiting at once, and the statement holding it. */
  let tight: WarehouseDriver;
  let holder: AbortController;
  let held: Promise<unknown>;

  beforeAll(async () => {
    s = await startSampleApp();
    admin = s.admin;
    const db = (await s.t.app.get(DatabasesRepository).findById(s.db))!;
    const connections = s.t.app.get(WarehouseConnections);
    const details = connections.validate(db.engine, openDetails(db.details, s.t.app.get(SecretBox)));
    tight = createDriver(db.engine, details, { maxPoolSize: 1, acquireTimeoutMs: 100 });
    // The app's pools wait 30 s for a connection; this one is swapped in for the Sample Database only.
    const real = connections.driverFor.bind(connections);
    jest.spyOn(connections, 'driverFor').mockImplementation((d) => (d.id === s.db ? tight : real(d)));
    holder = new AbortController();
    held = tight.query(ENDLESS, [], { signal: holder.signal, readOnly: true }).catch((e: unknown) => e);
    await until(() => tight.poolInfo().numBusyConnections === 1);
  });

  afterAll(async () => {
    holder?.abort();
    await held;
    jest.restoreAllMocks();
    await tight?.close();
    await s?.t.close();
  });

  const expect503 = (res: { status: number; headers: Record<string, string>; body: { message?: unknown } }) => {
    expect({ status: res.status, retryAfter: res.headers['retry-after'] }).toEqual({ status: 503, retryAfter: '5' });
    expect(res.body.message).toMatch(POOL_TIMEOUT);
  };

  it('answers a field search 503 with Retry-After', async () => {
    expect503(
      await s.t
        .http()
        .get(`/api/field/${s.field('PEOPLE', 'ID')}/search/${s.field('PEOPLE', 'NAME')}`)
        .query({ value: 'M' })
        .set(auth(admin)),
    );
  });

  it('answers a field summary and a rescan of field values 503 with Retry-After', async () => {
    expect503(
      await s.t
        .http()
        .get(`/api/field/${s.field('PRODUCTS', 'CATEGORY')}/summary`)
        .set(auth(admin)),
    );
    expect503(
      await s.t
        .http()
        .post(`/api/field/${s.field('PRODUCTS', 'CATEGORY')}/rescan_values`)
        .set(auth(admin)),
    );
  });

  it('answers a live parameter-values look-up 503 with Retry-After', async () => {
    // ORDERS.ID has no stored value list: its values are read from the warehouse.
    const parameter = { id: 'abc123', type: 'id', name: 'Order', slug: 'order' };
    expect503(
      await s.t
        .http()
        .post('/api/dataset/parameter/values')
        .set(auth(admin))
        .send({ parameter, field_ids: [s.field('ORDERS', 'ID')] }),
    );
  });

  it('answers /api/dataset 503 with Retry-After too: no connection in time is capacity, not a failed query', async () => {
    expect503(
      await s.t
        .http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({ database: s.db, type: 'native', native: { query: 'SELECT 1' } }),
    );
  });

  it('serves again once the connection is free', async () => {
    holder.abort();
    await held;
    await until(() => tight.poolInfo().numBusyConnections === 0);
    await s.t
      .http()
      .get(`/api/field/${s.field('PEOPLE', 'ID')}/search/${s.field('PEOPLE', 'NAME')}`)
      .query({ value: 'M' })
      .set(auth(admin))
      .expect(200);
  });
});
