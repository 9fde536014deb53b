import { auth, setupAdmin } from '../support/factories';
import { waitForDatabase } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';

describe('query timeout', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('stops a query that runs past QUERY_TIMEOUT_SECONDS and answers the failed shape', async () => {
    t = await startTestApp({ LOAD_SAMPLE_DATABASE: 'true', QUERY_TIMEOUT_SECONDS: '1' });
    const admin = await setupAdmin(t);
    const db = await waitForDatabase(t, admin, 'Sample Database');
    const started = Date.now();
    const res = await t
      .http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({
        database: db,
        type: 'native',
        native: { query: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c' },
      })
      .expect(202);
    expect(res.body).toMatchObject({ status: 'failed', error_type: 'timed-out' });
    expect(res.body.error).toMatch(/longer than 1 second/);
    expect(Date.now() - started).toBeLessThan(30_000);
    const after = await t
      .http()
      .post('/api/dataset')
      .set(auth(admin))
      .send({ database: db, type: 'native', native: { query: 'SELECT 1 AS one' } })
      .expect(202);
    expect(after.body.data.rows).toEqual([[1]]);
  });
});
