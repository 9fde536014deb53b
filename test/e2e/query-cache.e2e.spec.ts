import { DataSource, IsNull, Not } from 'typeorm';
import type { AuthUser } from '../../src/common/auth/current-user';
import { DatasetService } from '../../src/modules/dataset/dataset.service';
import { QueryCacheEntry } from '../../src/schema/query-cache.entity';
import { QueryCacheService } from '../../src/modules/query-cache/query-cache.service';
import { QueryExecution } from '../../src/schema/query-execution.entity';
import { rawQueryHash } from '../../src/modules/query-log/query-hash';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { ADMIN_GROUP_ID, ALL_USERS_GROUP_ID } from '../../src/schema/permissions-group.entity';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, setupAdmin } from '../support/factories';
import { waitForIdle } from '../support/sync-runs';
import { startTestApp, TestApp } from '../support/test-app';
import { grantsChanged } from '../support/grants';

jest.setTimeout(90_000);

/** The result cache, through DatasetService (cards pass their cache_ttl there) and across two instances. */
describe('query result cache', () => {
  let t: TestApp;
  let t2: TestApp;
  let admin: string;
  let adminUser: AuthUser;
  let user: AuthUser;
  let db: number;
  let wh: E2eWarehouse;
  let n = 0;
  const signal = () => new AbortController().signal;
  /** A native query no other test runs, counting the rows of `t`. */
  const fresh = () => ({ database: db, type: 'native', native: { query: `SELECT count(*) AS n, ${++n} AS k FROM t` } });
  const count = (res: { data: { rows: unknown[][] } }) => res.data.rows[0][0];
  const addRow = () => wh.exec(['INSERT INTO t DEFAULT VALUES']);
  const run = async (
    app: TestApp,
    query: object,
    caller: AuthUser,
    opts: Parameters<DatasetService['run']>[3] = { cacheTtlSeconds: 60 },
  ) => {
    const res = await app.app.get(DatasetService).run(query, caller, signal(), opts);
    await app.app.get(QueryCacheService).flush();
    await app.app.get(QueryLogService).flush();
    if (res.status !== 'completed') throw new Error(`query failed: ${res.error}`);
    return res;
  };
  const entries = () => t.app.get(DataSource).getRepository(QueryCacheEntry);
  const expireAll = () => entries().update({ query_hash: Not(IsNull()) }, { expires_at: new Date(Date.now() - 1000) });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    adminUser = {
      id: (await t.http().get('/api/user/current').set(auth(admin)).expect(200)).body.id,
      isSuperuser: true,
      groupIds: [ALL_USERS_GROUP_ID, ADMIN_GROUP_ID],
    };
    user = { id: (await makeUserDirect(t)).id, isSuperuser: false, groupIds: [ALL_USERS_GROUP_ID] };
    wh = await e2eWarehouse('sqlite', t.config.dataDir, {
      statements: ['CREATE TABLE t (id INTEGER PRIMARY KEY)', 'INSERT INTO t VALUES (1), (2), (3)'],
    });
    db = (await t.http().post('/api/database').set(auth(admin)).send({ engine: 'sqlite', name: 'Cache', details: wh.details }).expect(200))
      .body.id;
    await waitForIdle(t, db);
    t2 = await startTestApp({}, t);
  });
  afterAll(async () => {
    await t2?.close();
    await t?.close();
    await wh?.drop();
  });

  it('answers a stored result until it expires, marked cached, with the original timing', async () => {
    const query = fresh();
    const first = await run(t, query, adminUser);
    expect(first.cached).toBeUndefined();
    expect(count(first)).toBe(3 + 0);
    await addRow();
    const hit = await run(t, query, adminUser, { cacheTtlSeconds: 60, context: 'question', cardId: 7 });
    expect(hit).toMatchObject({
      cached: true,
      status: 'completed',
      context: 'question',
      started_at: first.started_at,
      running_time: first.running_time,
    });
    expect(count(hit)).toBe(count(first));
    expect(hit.updated_at).toEqual(expect.any(String));
    expect(Date.parse(hit.updated_at!)).toBeGreaterThanOrEqual(Date.parse(first.started_at));
    const logged = await t.app
      .get(DataSource)
      .getRepository(QueryExecution)
      .find({ where: { hash: rawQueryHash(query) }, order: { id: 'ASC' } });
    expect(logged.map((r) => [r.cache_hit, r.context, r.card_id, r.result_rows])).toEqual([
      [false, 'ad-hoc', null, 1],
      [true, 'question', 7, 1],
    ]);
    // Expired: run again, and the fresh result replaces the entry.
    await expireAll();
    const after = await run(t, query, adminUser);
    expect(after.cached).toBeUndefined();
    expect(count(after)).toBe((count(first) as number) + 1);
    expect(count(await run(t, query, adminUser))).toBe(count(after));
  });

  it('bypasses the cache with ignoreCache and stores the fresh result', async () => {
    const query = fresh();
    const first = await run(t, query, adminUser);
    await addRow();
    const bypass = await run(t, query, adminUser, { cacheTtlSeconds: 60, ignoreCache: true });
    expect(bypass.cached).toBeUndefined();
    expect(count(bypass)).toBe((count(first) as number) + 1);
    const hit = await run(t, query, adminUser);
    expect(hit.cached).toBe(true);
    expect(count(hit)).toBe(count(bypass));
  });

  it('never caches without a TTL, nor for ad-hoc POST /api/dataset', async () => {
    const query = fresh();
    const before = await entries().count();
    await run(t, query, adminUser, { context: 'ad-hoc' });
    await run(t, query, adminUser, 'ad-hoc');
    const overHttp = await t.http().post('/api/dataset').set(auth(admin)).send(query).expect(202);
    expect(overHttp.body.cached).toBeUndefined();
    expect(await entries().count()).toBe(before);
  });

  it('stores only runs that took at least cacheMinDurationMs', async () => {
    const query = fresh();
    await run(t, query, adminUser, { cacheTtlSeconds: 60, cacheMinDurationMs: 60_000 });
    expect((await run(t, query, adminUser)).cached).toBeUndefined();
    expect((await run(t, query, adminUser)).cached).toBe(true);
  });

  it('serves an entry stored by one instance to another on the same app DB', async () => {
    const query = fresh();
    const first = await run(t, query, adminUser);
    await addRow();
    const other = await run(t2, query, adminUser);
    expect(other.cached).toBe(true);
    expect(count(other)).toBe(count(first));
    expect(other.started_at).toBe(first.started_at);
  });

  it('keeps entries apart for different permission shapes', async () => {
    const query = fresh();
    const asAdmin = await run(t, query, adminUser);
    await addRow();
    // A user with the same data access but other groups does not get the admin's entry...
    const asUser = await run(t, query, user);
    expect(asUser.cached).toBeUndefined();
    expect(count(asUser)).toBe((count(asAdmin) as number) + 1);
    // ...nor a user in one more group; the same groups do share.
    const wider = await run(t, query, { ...user, id: user.id, groupIds: [ALL_USERS_GROUP_ID, 99999] });
    expect(wider.cached).toBeUndefined();
    const sameShape = await run(t2, query, { ...user, groupIds: [ALL_USERS_GROUP_ID, ALL_USERS_GROUP_ID] });
    expect(sameShape.cached).toBe(true);
    expect(count(sameShape)).toBe(count(asUser));
    // Parameters are part of the key.
    const withParam = {
      ...query,
      native: {
        query: `${query.native.query} WHERE id > {{x}}`,
        'template-tags': { x: { name: 'x', 'display-name': 'X', type: 'number' } },
      },
    };
    const p1 = await run(
      t,
      { ...withParam, parameters: [{ type: 'number/=', target: ['variable', ['template-tag', 'x']], value: 1 }] },
      user,
    );
    const p2 = await run(
      t,
      { ...withParam, parameters: [{ type: 'number/=', target: ['variable', ['template-tag', 'x']], value: 2 }] },
      user,
    );
    expect(p2.cached).toBeUndefined();
    expect(count(p2)).toBe((count(p1) as number) - 1);
  });

  it('still checks permissions before answering from the cache', async () => {
    const query = fresh();
    await run(t, query, user);
    const ds = t.app.get(DataSource);
    await ds.query("UPDATE database_permission SET native = 'none'");
    await grantsChanged(t.app);
    try {
      await expect(t.app.get(DatasetService).run(query, user, signal(), { cacheTtlSeconds: 60 })).rejects.toThrow();
    } finally {
      await ds.query("UPDATE database_permission SET native = 'write'");
      await grantsChanged(t.app);
    }
  });

  it('does not cache failures, and prunes expired entries', async () => {
    const bad = { database: db, type: 'native', native: { query: 'SELECT nope FROM t' } };
    const before = await entries().count();
    const res = await t.app.get(DatasetService).run(bad, adminUser, signal(), { cacheTtlSeconds: 60 });
    expect(res.status).toBe('failed');
    await t.app.get(QueryCacheService).flush();
    expect(await entries().count()).toBe(before);
    expect(before).toBeGreaterThan(0);
    await expireAll();
    expect(await t2.app.get(QueryCacheService).pruneExpired()).toBe(before);
    expect(await entries().count()).toBe(0);
  });
});
