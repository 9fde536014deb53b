import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, setupAdmin } from '../support/factories';
import { syncThroughApi, waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { waitForSync } from '../support/sync-wait';
import { until } from '../support/until';

jest.setTimeout(90_000);

/**
 * Queries read table and field metadata through each instance's cache: what changes through an instance shows at
 * once on that instance, and on the others within SETTINGS_REFRESH_SECONDS.
 */
describe('query metadata as it changes', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  let db: number;
  let table: number;
  const fields: Record<string, number> = {};
  const columns = async (on: TestApp) => {
    const res = await on
      .http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({ database: db, type: 'query', query: { 'source-table': table } })
      .expect(202);
    expect(res.body.status).toBe('completed');
    return (res.body.data.cols as Array<{ name: string; display_name: string }>).map((c) => `${c.name}:${c.display_name}`);
  };

  beforeAll(async () => {
    a = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' });
    b = await startTestApp({ SETTINGS_REFRESH_SECONDS: '1' }, a);
    admin = await setupAdmin(a);
    wh = await e2eWarehouse('sqlite', a.config.dataDir, {
      statements: ['CREATE TABLE things (id INTEGER PRIMARY KEY, label TEXT, size INTEGER)', "INSERT INTO things VALUES (1, 'x', 2)"],
    });
    db = (
      await a.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Changing', details: wh.details }).expect(200)
    ).body.id;
    await waitForSync(a, admin, db);
    await waitForIdle(a, db);
    const tables = (await a.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body.tables as Array<{
      id: number;
      name: string;
    }>;
    table = tables.find((t) => t.name === 'things')!.id;
    const meta = (await a.http().get(`/api/table/${table}/query_metadata`).set(auth(admin)).expect(200)).body;
    for (const f of meta.fields as Array<{ id: number; name: string }>) fields[f.name] = f.id;
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await wh.drop();
  });

  it('shows an edited field at once on the instance that edited it, and soon on the others', async () => {
    expect(await columns(a)).toEqual(['id:ID', 'label:Label', 'size:Size']);
    expect(await columns(b)).toEqual(['id:ID', 'label:Label', 'size:Size']);
    await a.http().put(`/api/field/${fields.label}`).set(auth(admin)).send({ display_name: 'Title' }).expect(200);
    expect(await columns(a)).toEqual(['id:ID', 'label:Title', 'size:Size']);
    await until(async () => (await columns(b))[1] === 'label:Title', 10_000);
  });

  it('hides a field at once when an admin hides it', async () => {
    await a.http().put(`/api/field/${fields.size}`).set(auth(admin)).send({ visibility_type: 'sensitive' }).expect(200);
    expect(await columns(a)).toEqual(['id:ID', 'label:Title']);
    await a.http().put(`/api/field/${fields.size}`).set(auth(admin)).send({ visibility_type: 'normal' }).expect(200);
    expect(await columns(a)).toEqual(['id:ID', 'label:Title', 'size:Size']);
  });

  it('follows a sync that adds and removes columns', async () => {
    await wh.exec(['ALTER TABLE things DROP COLUMN size', 'ALTER TABLE things ADD COLUMN weight REAL']);
    await syncThroughApi(a, admin, db);
    expect(await columns(a)).toEqual(['id:ID', 'label:Title', 'weight:Weight']);
  });

  it('answers 404 for a table of a deleted database at once', async () => {
    await a.http().delete(`/api/database/${db}`).set(auth(admin)).expect(204);
    const res = await a
      .http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({ database: db, type: 'query', query: { 'source-table': table } });
    expect(res.status).toBe(404);
  });
});
