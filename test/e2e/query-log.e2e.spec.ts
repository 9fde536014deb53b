import { DataSource } from 'typeorm';
import { QueryExecution } from '../../src/schema/query-execution.entity';
import { rawQueryHash } from '../../src/modules/query-log/query-hash';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, setupAdmin } from '../support/factories';
import { waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

jest.setTimeout(90_000);

/** The execution log behind POST /api/dataset, `average_execution_time` and POST /api/dataset/duration. */
describe('query execution log', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  let db: number;
  let wh: E2eWarehouse;
  let n = 0;
  const log = () => t.app.get(QueryLogService);
  const rows = () => t.app.get(DataSource).getRepository(QueryExecution);
  const run = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset')
      .set(auth(session))
      .send(body as object)
      .expect(202);
  const duration = (body: unknown, session = admin) =>
    t
      .http()
      .post('/api/dataset/duration')
      .set(auth(session))
      .send(body as object);
  /** A native query no other test runs. */
  const fresh = () => ({ database: db, type: 'native', native: { query: `SELECT count(*) AS n, ${++n} AS k FROM t` } });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    adminId = (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.id;
    wh = await e2eWarehouse('sqlite', t.config.dataDir, {
      statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)', 'INSERT INTO t VALUES (1), (2), (3)'],
    });
    db = (await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Log', details: wh.details }).expect(200))
      .body.id;
    await waitForIdle(t, db);
  });
  afterAll(async () => {
    await t.close();
    await wh.drop();
  });

  it('writes one row per successful run, after the answer', async () => {
    const query = fresh();
    const res = await run(query);
    expect(res.body).toMatchObject({ status: 'completed', data: { rows: [[3, n]] } });
    await log().flush();
    const logged = await rows().findBy({ hash: rawQueryHash(query) });
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      running_time: res.body.running_time,
      result_rows: 1,
      native: true,
      context: 'ad-hoc',
      executor_id: adminId,
      database_id: db,
      card_id: null,
      dashboard_id: null,
      error: null,
      cache_hit: false,
    });
    expect(new Date(logged[0].started_at).toISOString()).toBe(res.body.started_at);
  });

  it('logs failures with the engine message, and invalid queries without a database', async () => {
    const bad = { database: db, type: 'native', native: { query: 'SELECT * FROM no_such_table' } };
    const res = await run(bad);
    expect(res.body.status).toBe('failed');
    const invalid = { database: db, type: 'query', query: { 'source-table': 1, aggregation: [['frobnicate']] } };
    expect((await run(invalid)).body.error_type).toBe('invalid-query');
    await log().flush();
    const [failed] = await rows().findBy({ hash: rawQueryHash(bad) });
    expect(failed).toMatchObject({ error: res.body.error, result_rows: 0, native: true, database_id: db });
    const [rejected] = await rows().findBy({ hash: rawQueryHash(invalid) });
    expect(rejected).toMatchObject({ native: false, database_id: null, executor_id: adminId });
    expect(rejected.error).toMatch(/frobnicate/);
  });

  it('keeps parameter values out of the error column', async () => {
    const query = {
      database: db,
      type: 'native',
      native: {
        query: 'SELECT * FROM t WHERE id = {{x}} AND nope = 1',
        'template-tags': { x: { name: 'x', 'display-name': 'X', type: 'text' } },
      },
      parameters: [{ type: 'category', target: ['variable', ['template-tag', 'x']], value: 'secret-value-42' }],
    };
    expect((await run(query)).body.status).toBe('failed');
    await log().flush();
    const [row] = await rows().findBy({ hash: rawQueryHash(query) });
    expect(row.error).toBeTruthy();
    expect(row.error).not.toContain('secret-value-42');
  });

  it('answers average_execution_time from earlier successful runs, and /api/dataset/duration likewise', async () => {
    const query = fresh();
    expect(
      await duration(query)
        .expect(200)
        .then((r) => r.body),
    ).toEqual({ average: 0 });
    const first = await run(query);
    expect(first.body.average_execution_time).toBeNull();
    await log().flush();
    // Known running times make the mean checkable.
    await rows().update({ hash: rawQueryHash(query) }, { running_time: 40 });
    const second = await run(query);
    expect(second.body.average_execution_time).toBe(40);
    await log().flush();
    // By id: the second run may itself have taken 40 ms, and then its running time would pick both rows.
    const logged = await rows().find({ where: { hash: rawQueryHash(query) }, order: { id: 'ASC' } });
    expect(logged).toHaveLength(2);
    await rows().update({ id: logged[1].id }, { running_time: 60 });
    expect((await run(query)).body.average_execution_time).toBe(50);
    await log().flush();
    const avg = (await duration(query).expect(200)).body.average;
    expect(avg).toEqual(expect.any(Number));
    const times = (await rows().findBy({ hash: rawQueryHash(query) })).map((r) => r.running_time);
    expect(avg).toBe(Math.round(times.reduce((a, b) => a + b, 0) / times.length));
    // The same query in legacy snake_case keys, or wrapped as {database, query}, is the same query.
    expect((await duration({ database: db, query }).expect(200)).body.average).toBe(avg);
    // Failed runs do not count.
    const bad = { database: db, type: 'native', native: { query: 'SELECT nope FROM t' } };
    await run(bad);
    await log().flush();
    expect((await duration(bad).expect(200)).body).toEqual({ average: 0 });
  });

  it('checks the database on /api/dataset/duration', async () => {
    await duration({ database: 99999, type: 'native', native: { query: 'SELECT 1' } }).expect(404);
    expect(
      (await duration({ database: 'x', type: 'native', native: { query: 'SELECT 1' } }).expect(400)).body.errors.database,
    ).toBeDefined();
    await t
      .http()
      .post('/api/dataset/duration')
      .send({ database: db, type: 'native', native: { query: 'SELECT 1' } })
      .expect(401);
    const user = await makeUserDirect(t);
    await duration(fresh(), user.session).expect(200);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET data = 'no', native = 'none'");
    await grantsChanged(t.app);
    try {
      await duration(fresh(), user.session).expect(403);
    } finally {
      await ds.query("UPDATE database_permission SET data = 'unrestricted', native = 'write'");
      await grantsChanged(t.app);
    }
  });

  it('prunes rows older than query-execution-retention-days', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const base = {
      running_time: 5,
      result_rows: 1,
      native: true,
      context: 'ad-hoc',
      executor_id: null,
      card_id: null,
      dashboard_id: null,
      database_id: db,
      error: null,
      cache_hit: false,
    };
    await rows().insert([
      { ...base, hash: 'a'.repeat(64), started_at: old },
      { ...base, hash: 'b'.repeat(64), started_at: new Date(Date.now() - 29 * 86_400_000) },
    ]);
    expect(await log().prune()).toBe(1);
    expect(await rows().countBy({ hash: 'a'.repeat(64) })).toBe(0);
    expect(await rows().countBy({ hash: 'b'.repeat(64) })).toBe(1);
    await t.http().put('/api/setting/query-execution-retention-days').set(auth(admin)).send({ value: 0 }).expect(204);
    expect(await log().prune(new Date(Date.now() + 1000 * 86_400_000))).toBe(0);
    await t.http().put('/api/setting/query-execution-retention-days').set(auth(admin)).send({ value: 7 }).expect(204);
    expect(await log().prune()).toBe(1);
    expect(await rows().countBy({ hash: 'b'.repeat(64) })).toBe(0);
    expect((await t.http().get('/api/setting/query-execution-retention-days').set(auth(admin)).expect(200)).body).toBe(7);
  });
});
