import { DataSource } from 'typeorm';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { waitForDatabase } from '../support/sync-wait';
import { e2eWarehouse } from '../support/e2e-warehouses';
import { grantsChanged } from '../support/grants';

describe('native query snippets', () => {
  let t: TestApp;
  let admin: string;
  let user: MadeUser;
  let sample: number;
  beforeAll(async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true' });
    admin = await setupAdmin(t);
    sample = await waitForDatabase(t, admin, 'Sample Database');
    user = await makeUserDirect(t);
  });
  afterAll(() => t.close());

  it('creates, reads, lists and updates snippets', async () => {
    const created = await t
      .http()
      .post('/api/native-query-snippet')
      .set(auth(user.session))
      .send({ name: 'big orders', content: 'TOTAL > 100', description: 'Orders over 100' })
      .expect(200);
    expect(created.body).toMatchObject({
      name: 'big orders',
      content: 'TOTAL > 100',
      description: 'Orders over 100',
      archived: false,
      creator_id: user.id,
      creator: { id: user.id },
    });
    const id = created.body.id;
    expect((await t.http().get(`/api/native-query-snippet/${id}`).set(auth(admin)).expect(200)).body.content).toBe('TOTAL > 100');
    const updated = await t
      .http()
      .put(`/api/native-query-snippet/${id}`)
      .set(auth(admin))
      .send({ content: 'TOTAL > 200', archived: true })
      .expect(200);
    expect(updated.body).toMatchObject({ content: 'TOTAL > 200', archived: true });
    expect(
      (await t.http().get('/api/native-query-snippet').set(auth(user.session)).expect(200)).body.map((s: { id: number }) => s.id),
    ).not.toContain(id);
    expect(
      (await t.http().get('/api/native-query-snippet?archived=true').set(auth(user.session)).expect(200)).body.map(
        (s: { id: number }) => s.id,
      ),
    ).toContain(id);
  });

  it('refuses bad input with the spec messages', async () => {
    const blank = await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: ' ', content: 'x' }).expect(400);
    expect(blank.body.errors.name).toBe('value must be a non-blank string.');
    const brace = await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'a}b', content: 'x' }).expect(400);
    expect(brace.body.errors.name).toBe("snippet names cannot include '}' or start with spaces");
    await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'no content' }).expect(400);
    await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'dup', content: '1' }).expect(200);
    const dup = await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'dup', content: '2' }).expect(400);
    expect(dup.body.errors.name).toMatch(/already exists/);
    const bool = await t.http().get('/api/native-query-snippet?archived=maybe').set(auth(admin)).expect(400);
    expect(bool.body.errors.archived).toBe('value must be a valid boolean string.');
    await t.http().get('/api/native-query-snippet/abc').set(auth(admin)).expect(400);
    expect((await t.http().get('/api/native-query-snippet/99999').set(auth(admin)).expect(404)).text).toBe('Not found.');
  });

  it('needs a login to read, and native rights somewhere to write', async () => {
    expect((await t.http().get('/api/native-query-snippet').expect(401)).text).toBe('Unauthenticated');
    await t.app.get(DataSource).query("UPDATE database_permission SET native = 'none'");
    await grantsChanged(t.app);
    const refused = await t
      .http()
      .post('/api/native-query-snippet')
      .set(auth(user.session))
      .send({ name: 'nope', content: '1' })
      .expect(403);
    expect(refused.text).toBe("You don't have permissions to do that.");
    await t.http().get('/api/native-query-snippet').set(auth(user.session)).expect(200);
    await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'admins may', content: '1' }).expect(200);
    await t.app.get(DataSource).query("UPDATE database_permission SET native = 'write'");
    await grantsChanged(t.app);
  });

  it('lets a user edit a snippet only with native rights on every database it has run on', async () => {
    const wh = await e2eWarehouse('sqlite', t.db.dataDir, { statements: ['CREATE TABLE t (x INTEGER)', 'INSERT INTO t VALUES (5)'] });
    const other = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Other', details: wh.details }).expect(200)
    ).body.id;
    const ds = t.app.get(DataSource);
    try {
      await ds.query(`UPDATE database_permission SET native = 'none' WHERE db_id = ${Number(other)}`);
      await grantsChanged(t.app);
      const id = (await t.http().post('/api/native-query-snippet').set(auth(admin)).send({ name: 'five', content: 'x = 5' }).expect(200))
        .body.id;
      // Unused: native rights on some database are enough.
      await t.http().put(`/api/native-query-snippet/${id}`).set(auth(user.session)).send({ description: 'unused yet' }).expect(200);

      // Once it has run on the other database, changing it changes SQL there: the user may not.
      const run = await t
        .http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({
          database: other,
          type: 'native',
          native: {
            query: 'SELECT x FROM t WHERE {{snippet: five}}',
            'template-tags': {
              'snippet: five': { name: 'snippet: five', 'display-name': 'five', type: 'snippet', 'snippet-name': 'five', 'snippet-id': id },
            },
          },
        })
        .expect(202);
      expect(run.body.data.rows).toEqual([[5]]);
      const refused = await t
        .http()
        .put(`/api/native-query-snippet/${id}`)
        .set(auth(user.session))
        .send({ content: '1 = 1) OR (1 = 1' })
        .expect(403);
      expect(refused.text).toBe("You don't have permissions to do that.");
      expect((await t.http().get(`/api/native-query-snippet/${id}`).set(auth(user.session)).expect(200)).body.content).toBe('x = 5');

      await ds.query(`UPDATE database_permission SET native = 'write' WHERE db_id = ${Number(other)}`);
      await grantsChanged(t.app);
      await t.http().put(`/api/native-query-snippet/${id}`).set(auth(user.session)).send({ content: 'x > 4' }).expect(200);
      // Rights on the other database alone are not enough either once it has also run on the Sample Database.
      const onSample = await t
        .http()
        .post('/api/dataset')
        .set(auth(admin))
        .send({
          database: sample,
          type: 'native',
          native: {
            query: 'SELECT count(*) AS n FROM (SELECT 5 AS x) s WHERE {{snippet: five}}',
            'template-tags': {
              'snippet: five': { name: 'snippet: five', 'display-name': 'five', type: 'snippet', 'snippet-name': 'five', 'snippet-id': id },
            },
          },
        })
        .expect(202);
      expect(onSample.body.data.rows).toEqual([[1]]);
      await ds.query(`UPDATE database_permission SET native = 'none' WHERE db_id = ${Number(sample)}`);
      await grantsChanged(t.app);
      await t.http().put(`/api/native-query-snippet/${id}`).set(auth(user.session)).send({ description: 'nope' }).expect(403);
      await t.http().put(`/api/native-query-snippet/${id}`).set(auth(admin)).send({ description: 'admins may' }).expect(200);
    } finally {
      await ds.query("UPDATE database_permission SET native = 'write'");
      await grantsChanged(t.app);
      await wh.drop();
    }
  });
});
