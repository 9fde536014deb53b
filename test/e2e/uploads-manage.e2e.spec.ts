import type { Engine } from '../../src/query-engine/execute/drivers';
import { ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUser, setupAdmin, type MadeUser } from '../support/factories';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, type TestApp } from '../support/test-app';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(180_000);

/**
 * Uploads around the file itself (issue 19): the `uploads-settings` checks, the `upload` permission in the data
 * permissions graph, appending to and replacing an uploaded table (and the 400s naming mismatched columns), and
 * deleting it.
 */
describe.each(availableEngines(['postgres', 'duckdb', 'mysql']).map((e) => [e]))('managing CSV uploads on %s', (engine: Engine) => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  const warehouses: E2eWarehouse[] = [];
  let db: number;
  const http = () => t.http();
  const setUploads = (value: unknown, session = admin) => http().put('/api/setting/uploads-settings').set(auth(session)).send({ value });
  const upload = (session: string, content: string, name = 'people.csv') =>
    http().post('/api/card/from-csv').set(auth(session)).field('collection_id', 'root').attach('file', Buffer.from(content), name);
  const send = (path: string, content: string, session = admin) =>
    http().post(path).set(auth(session)).attach('file', Buffer.from(content), 'more.csv');
  const rowsOf = async (cardId: number) => {
    const res = (await http().post(`/api/card/${cardId}/query`).set(auth(admin)).send({}).expect(202)).body;
    const cols = res.data.cols.map((c: { name: string }) => c.name.toLowerCase());
    return (res.data.rows as unknown[][])
      .map((r) => [Number(r[cols.indexOf('a')]), r[cols.indexOf('b')]])
      .sort((x, y) => (x[0] as number) - (y[0] as number));
  };
  const setGraph = async (access: Record<string, unknown>) => {
    const g = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    return (
      await http()
        .put('/api/permissions/graph')
        .set(auth(admin))
        .send({ revision: g.revision, groups: { [ALL_USERS_GROUP_ID]: { [db]: access } } })
        .expect(200)
    ).body;
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    user = await makeUser(t, admin);
    const wh = await e2eWarehouse(engine, t.config.dataDir, { statements: ['CREATE TABLE plain (a INTEGER)'] });
    warehouses.push(wh);
    db = (
      await http()
        .post('/api/database')
        .set(auth(admin))
        .send({ engine, name: `Uploads ${engine}`, details: wh.details })
        .expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all(warehouses.map((w) => w.drop()));
  });

  it('checks uploads-settings and refuses uploads until a database is set', async () => {
    expect((await upload(admin, 'a,b\n1,x\n').expect(400)).body.message).toBe('The uploads database is not configured.');
    expect((await setUploads({ db_id: 99999, schema_name: null, table_prefix: null }).expect(400)).body.errors['uploads-settings']).toBe(
      'The uploads database does not exist.',
    );
    const lite = await e2eWarehouse('sqlite', t.config.dataDir);
    warehouses.push(lite);
    const liteDb = (
      await http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Lite', details: lite.details }).expect(200)
    ).body.id;
    expect((await setUploads({ db_id: liteDb, schema_name: null, table_prefix: null }).expect(400)).body.errors['uploads-settings']).toBe(
      'Uploads are not supported on sqlite databases.',
    );
    await setUploads({ db_id: db, schema_name: 'no such; schema', table_prefix: null }).expect(400);
    await setUploads({ db_id: db, schema_name: null, table_prefix: 'x' }, user.session).expect(403);
    await setUploads({ db_id: db, schema_name: null, table_prefix: 'csv_' }).expect(204);
    const read = (await http().get('/api/setting/uploads-settings').set(auth(admin)).expect(200)).body;
    expect(read).toEqual({ db_id: db, schema_name: null, table_prefix: 'csv_' });
  });

  it('lets a non-admin upload only with the upload permission (and data access)', async () => {
    await upload(user.session, 'a,b\n1,x\n').expect(403);
    const g = await setGraph({ data: 'unrestricted', native: 'write', upload: 'yes' });
    expect(g.groups[ALL_USERS_GROUP_ID][db].upload).toBe('yes');
    const id = (await upload(user.session, 'a,b\n1,x\n').expect(200)).body as number;
    expect(await rowsOf(id)).toEqual([[1, 'x']]);
    await setGraph({ data: 'no', native: 'none' });
    await upload(user.session, 'a,b\n1,x\n').expect(403);
    const after = await setGraph({ data: 'unrestricted', native: 'write' });
    expect(after.groups[ALL_USERS_GROUP_ID][db].upload).toBeUndefined(); // data access taken away took uploads with it
    const g2 = (await http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    await http()
      .put('/api/permissions/graph')
      .set(auth(admin))
      .send({
        revision: g2.revision,
        groups: { [ALL_USERS_GROUP_ID]: { [db]: { data: 'unrestricted', native: 'write', upload: 'maybe' } } },
      })
      .expect(400);
  });

  it('refuses an upload posted by a page of another site with the session cookie alone', async () => {
    const cookie = `metabase.SESSION=${admin}`;
    const post = (origin?: string) => {
      const req = http()
        .post('/api/card/from-csv')
        .set('Cookie', cookie)
        .field('collection_id', 'root')
        .attach('file', Buffer.from('a,b\n1,x\n'), 'site.csv');
      return origin ? req.set('Origin', origin) : req;
    };
    const refused = await post('https://evil.example').expect(403);
    expect(refused.body.message).toMatch(/another site/);
    const id = (await post('https://analytics.example').set('Host', 'analytics.example').set('X-Forwarded-Proto', 'https').expect(200))
      .body as number;
    expect(await rowsOf(id)).toEqual([[1, 'x']]);
    // A client that sends the session header (the SDK, scripts) may post from anywhere: a plain form cannot set it.
    await http()
      .post('/api/card/from-csv')
      .set(auth(admin))
      .set('Origin', 'https://app.example')
      .field('collection_id', 'root')
      .attach('file', Buffer.from('a,b\n2,y\n'), 'sdk.csv')
      .expect(200);
  });

  it('appends to and replaces an uploaded table, and names mismatched columns', async () => {
    const id = (await upload(admin, 'a,b\n1,x\n2,y\n').expect(200)).body as number;
    const tableId = (await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body.table_id as number;
    await send(`/api/table/${tableId}/append-csv`, 'b,a\nz,3\n').expect(200);
    expect(await rowsOf(id)).toEqual([
      [1, 'x'],
      [2, 'y'],
      [3, 'z'],
    ]);
    expect((await send(`/api/table/${tableId}/append-csv`, 'a,c\n4,w\n').expect(400)).body.message).toBe(
      'The CSV file is missing columns that are in the table: b. The CSV file contains extra columns that are not in the table: c.',
    );
    expect((await send(`/api/table/${tableId}/append-csv`, 'a,b\nfour,w\n').expect(400)).body.message).toMatch(/do not fit .*: a\.$/);
    await send(`/api/table/${tableId}/append-csv`, 'a,b\n5,v\n', user.session).expect(403);
    await send(`/api/table/${tableId}/replace-csv`, 'a,b\n9,q\n').expect(200);
    expect(await rowsOf(id)).toEqual([[9, 'q']]);

    // Only tables made by uploads: not one that was there before.
    const meta = (await http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body;
    const other = meta.tables.find((x: { id: number; name: string }) => x.name === 'plain');
    expect((await send(`/api/table/${other.id}/append-csv`, 'a\n1\n').expect(400)).body.message).toBe(
      'The table must be an uploaded table.',
    );
    await send('/api/table/999999/append-csv', 'a\n1\n').expect(404);

    await http().delete(`/api/ee/upload-management/tables/${tableId}`).set(auth(user.session)).expect(403);
    await http().delete(`/api/ee/upload-management/tables/${tableId}`).set(auth(admin)).expect(200);
    expect((await http().get(`/api/card/${id}`).set(auth(admin)).expect(200)).body.archived).toBe(true);
    await send(`/api/table/${tableId}/append-csv`, 'a,b\n1,x\n').expect(404);
  });
});
