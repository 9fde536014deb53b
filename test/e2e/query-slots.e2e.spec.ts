import { QuerySlots } from '../../src/modules/warehouse/query-slots';
import { auth } from '../support/factories';
import { SampleApp, startSampleApp } from '../support/sample-app';
import { until } from '../support/until';

jest.setTimeout(90_000);

/** Each user may have MAX_QUERIES_PER_USER warehouse queries running at once; one more answers 429 at once. */
describe('concurrent queries per user', () => {
  let s: SampleApp;
  let adminId: number;
  const slow = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) AS n FROM c';
  const native = (db: number, sql: string) => ({ database: db, type: 'native', native: { query: sql } });

  beforeAll(async () => {
    s = await startSampleApp({ MAX_QUERIES_PER_USER: '2' });
    adminId = (await s.t.http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
  });
  afterAll(() => s.t.close());

  it('refuses a third query of one user with 429 while two run, lets others run, and frees the slots when they end', async () => {
    const slots = s.t.app.get(QuerySlots);
    const running = [0, 1].map(() => s.t.http().post('/api/dataset').set(auth(s.admin)).send(native(s.db, slow)));
    const settled = running.map((r) => r.then(() => 'answered', () => 'aborted'));
    await until(() => slots.runningFor(adminId) === 2, 30_000);

    const refused = await s.t.http().post('/api/dataset').set(auth(s.admin)).send(native(s.db, 'SELECT 1 AS one')).expect(429);
    expect(refused.body).toEqual({ message: 'You have 2 queries running already. Wait for one of them to finish, then try again.' });
    for (const format of ['csv', 'json']) {
      await s.t.http().post(`/api/dataset/${format}`).set(auth(s.admin)).send({ query: JSON.stringify(native(s.db, 'SELECT 1 AS one')) }).expect(429);
    }
    // Another user is not held up by them.
    const other = await s.t.http().post('/api/dataset').set(auth(s.user.session)).send(native(s.db, 'SELECT 7 AS seven')).expect(202);
    expect(other.body.data.rows).toEqual([[7]]);

    // Leaving cancels the queries and gives the slots back.
    running.forEach((r) => r.abort());
    expect(await Promise.all(settled)).toEqual(['aborted', 'aborted']);
    await until(() => slots.runningFor(adminId) === 0, 30_000);
    const again = await s.t.http().post('/api/dataset').set(auth(s.admin)).send(native(s.db, 'SELECT 1 AS one')).expect(202);
    expect(again.body.data.rows).toEqual([[1]]);
  });

  it('gives the slot back after failed, streamed and downloaded runs', async () => {
    const slots = s.t.app.get(QuerySlots);
    await s.t.http().post('/api/dataset').set(auth(s.admin)).send(native(s.db, 'SELECT * FROM no_such_table')).expect(202);
    const big = { database: s.db, type: 'query', query: { 'source-table': s.table('ORDERS').id }, constraints: { 'max-results': 5000 } };
    const streamed = await s.t.http().post('/api/dataset').set(auth(s.admin)).send(big).expect(202);
    expect(streamed.body.data.rows).toHaveLength(5000);
    await s.t.http().post('/api/dataset/csv').set(auth(s.admin)).send({ query: JSON.stringify(big) }).expect(200);
    await until(() => slots.runningFor(adminId) === 0, 30_000);
    expect(slots.runningFor(adminId)).toBe(0);
  });
});
