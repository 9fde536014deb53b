import { QuerySlots } from '../../src/modules/warehouse/query-slots';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { until } from '../support/until';

jest.setTimeout(90_000);

/**
 * Each user may have MAX_QUERIES_PER_USER warehouse queries running at once on a database; more wait their turn
 * (the Sample Database is SQLite: a pool of 4, so 3 per user at most, one left to the others).
 */
describe('concurrent queries per user', () => {
  let s: SampleApp;
  let adminId: number;
  /** Counts to 2 billion: runs until cancelled. Each `n` is another query, so none of them share a run. */
  const slow = (n: number) =>
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) + ${n} AS n FROM c`;
  const native = (db: number, sql: string) => ({ database: db, type: 'native', native: { query: sql } });
  const queue = async () =>
    (await s.t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(s.admin)).expect(200)).body['connection-pools'][
      `db-${s.db}`
    ];

  beforeAll(async () => {
    s = await startSampleApp({ MAX_QUERIES_PER_USER: '2' });
    adminId = (await s.t.http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
  });
  afterAll(() => s.t.close());

  it('queues a third query of one user while two run, runs it once a slot frees, and lets others run meanwhile', async () => {
    const slots = s.t.app.get(QuerySlots);
    const running = [1, 2].map((n) =>
      s.t
        .http()
        .post('/api/dataset')
        .set(auth(s.admin))
        .send(native(s.db, slow(n))),
    );
    const settled = running.map((r) =>
      r.then(
        () => 'answered',
        () => 'aborted',
      ),
    );
    await until(() => slots.runningFor(adminId) === 2, 30_000);

    // Past the limit nothing is refused: the query, and downloads, wait.
    const third = s.t
      .http()
      .post('/api/dataset')
      .set(auth(s.admin))
      .send(native(s.db, 'SELECT 1 AS one'))
      .then((r) => r);
    const downloads = ['csv', 'json'].map((format, i) =>
      s.t
        .http()
        .post(`/api/dataset/${format}`)
        .set(auth(s.admin))
        .send({ query: JSON.stringify(native(s.db, `SELECT ${i + 2} AS n`)) })
        .then((r) => r),
    );
    await until(async () => (await queue())?.numQueuedQueries === 3);
    expect(await queue()).toMatchObject({ numRunningQueries: 2, numQueuedUsers: 1, maxRunningQueries: 4, maxQueriesPerUser: 2 });
    // Another user is not held up by them.
    const other = await s.t.http().post('/api/dataset').set(auth(s.user.session)).send(native(s.db, 'SELECT 7 AS seven')).expect(202);
    expect(other.body.data.rows).toEqual([[7]]);
    expect((await queue()).numQueuedQueries).toBe(3);

    // Leaving cancels the running queries and gives their slots to the waiting ones.
    running.forEach((r) => r.abort());
    expect(await Promise.all(settled)).toEqual(['aborted', 'aborted']);
    const answered = await third;
    expect([answered.status, answered.body.data.rows]).toEqual([202, [[1]]]);
    const [csv, json] = await Promise.all(downloads);
    expect([csv.status, csv.text]).toEqual([200, 'n\n2\n']);
    expect([json.status, json.body]).toEqual([200, [{ n: 3 }]]);
    await until(() => slots.runningFor(adminId) === 0, 30_000);
    expect(await queue()).toMatchObject({ numRunningQueries: 0, numQueuedQueries: 0, longestQueuedMs: 0 });
  });

  it('gives the slot back after failed, streamed and downloaded runs', async () => {
    const slots = s.t.app.get(QuerySlots);
    await s.t.http().post('/api/dataset').set(auth(s.admin)).send(native(s.db, 'SELECT * FROM no_such_table')).expect(202);
    const big = { database: s.db, type: 'query', query: { 'source-table': s.table('ORDERS').id }, constraints: { 'max-results': 5000 } };
    const streamed = await s.t.http().post('/api/dataset').set(auth(s.admin)).send(big).expect(202);
    expect(streamed.body.data.rows).toHaveLength(5000);
    await s.t
      .http()
      .post('/api/dataset/csv')
      .set(auth(s.admin))
      .send({ query: JSON.stringify(big) })
      .expect(200);
    await until(() => slots.runningFor(adminId) === 0, 30_000);
    expect(slots.runningFor(adminId)).toBe(0);
  });
});
