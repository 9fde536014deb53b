import { QuerySlots } from '../../src/modules/warehouse/query-slots';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { probedApp } from '../support/probed-app';
import { until } from '../support/until';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(120_000);

/** A probed app (probed-app.ts) and the query queue of its warehouse as connection_pool_info shows it. */
async function queueApp(env: Record<string, string>) {
  const app = await probedApp(env);
  const queue = async () => (await app.diagnostics())['connection-pools'][`db-${app.db}`];
  return { ...app, queue };
}

type QueueApp = Awaited<ReturnType<typeof queueApp>>;

/**
 * Past MAX_QUERIES_PER_USER a user's queries wait their turn instead of being refused; they wait at most
 * QUERY_QUEUE_TIMEOUT_SECONDS (then 503 with Retry-After), and a client that leaves takes its query out of the line.
 */
describe.each(availableEngines(['postgres']).map((e) => [e]))('the query queue on a %s warehouse', () => {
  describe('with room for two queries per user', () => {
    let q: QueueApp;
    let user: MadeUser;
    let adminId: number;
    beforeAll(async () => {
      q = await queueApp({ MAX_QUERIES_PER_USER: '2', METRICS_PORT: '0', HOST: '127.0.0.1' });
      user = await makeUserDirect(q.t);
      adminId = (await q.t.http().get('/api/user/current').set(auth(q.admin)).expect(200)).body.id;
    });
    afterAll(async () => {
      await q?.close();
    });

    it("runs a whole burst of one user's queries, two at a time, while another user's query runs at once", async () => {
      await q.probe.close();
      const tags = Array.from({ length: 8 }, (_, i) => `burst_${i}`);
      const burst = tags.map((tag, i) => q.ask(q.admin, q.probe.sql(tag, { select: `${i} AS i` })).then((r) => r));
      await until(async () => {
        const info = await q.queue();
        return info?.numRunningQueries === 2 && info.numQueuedQueries === 6;
      });
      // On the warehouse: two of them, held at the gate; the others have not reached it.
      const onWarehouse = async () => (await Promise.all(tags.map((tag) => q.probe.running(tag)))).reduce((a, b) => a + b, 0);
      await until(async () => (await onWarehouse()) === 2);
      const metrics = await q.metrics();
      expect(metrics).toContain(`analytics_query_queue_waiting{pool="db-${q.db}"} 6`);

      const other = await q.ask(user.session, 'SELECT 7 AS seven').expect(202);
      expect(other.body.data.rows).toEqual([[7]]);
      expect(await q.queue()).toMatchObject({ numRunningQueries: 2, numQueuedQueries: 6, numQueuedUsers: 1 });

      await q.probe.open();
      const answers = await Promise.all(burst);
      expect(answers.map((a) => [a.status, a.body.status, a.body.data.rows])).toEqual(tags.map((_, i) => [202, 'completed', [[i]]]));
      const after = await q.metrics();
      const ran = new RegExp(`analytics_query_queue_wait_seconds_count\\{pool="db-${q.db}",outcome="ran"\\} (\\d+)`).exec(after);
      expect(Number(ran?.[1])).toBeGreaterThanOrEqual(9);
      expect(after).toContain(`analytics_query_queue_waiting{pool="db-${q.db}"} 0`);
    });

    it('takes the query of a client that leaves out of the line: it never runs on the warehouse', async () => {
      await Promise.all([q.probe.close(0), q.probe.close(1)]);
      const holders = [0, 1].map((i) => q.ask(q.admin, q.probe.sql(`hold_${i}`)).then((r) => r.status));
      await until(async () => (await q.queue())?.numRunningQueries === 2);
      // It would wait at the second gate, were it ever run.
      const leaving = q.ask(q.admin, q.probe.sql('left', { gate: 1 }));
      const left = leaving.then(
        () => 'answered',
        () => 'aborted',
      );
      await until(async () => (await q.queue()).numQueuedQueries === 1);
      leaving.abort();
      expect(await left).toBe('aborted');
      await until(async () => (await q.queue()).numQueuedQueries === 0);
      expect((await q.queue()).numRunningQueries).toBe(2);

      // The holders end and free their slots; a query of the same user sent after it reaches the second gate, and
      // the one that left, which came first, is not there.
      await q.probe.open(0);
      expect(await Promise.all(holders)).toEqual([202, 202]);
      const later = q.ask(q.admin, q.probe.sql('later', { gate: 1 })).then((r) => r.status);
      await until(async () => (await q.probe.running('later')) === 1);
      expect(await q.probe.running('left')).toBe(0);
      await q.probe.open(1);
      expect(await later).toBe(202);
      await until(() => q.t.app.get(QuerySlots).runningFor(adminId) === 0);
    });
  });

  describe('with a one-second wait bound', () => {
    let q: QueueApp;
    beforeAll(async () => {
      q = await queueApp({ MAX_QUERIES_PER_USER: '1', QUERY_QUEUE_TIMEOUT_SECONDS: '1' });
    });
    afterAll(async () => {
      await q?.close();
    });

    it('answers a query that waited its longest 503 with Retry-After, on every path, and runs it nowhere', async () => {
      await q.probe.close();
      const holder = q.ask(q.admin, q.probe.sql('holder')).then((r) => r);
      await until(async () => (await q.queue())?.numRunningQueries === 1);
      const message = 'Timed out waiting for a turn to run the query (waited 1 second). Try again shortly.';
      const refused = await q.ask(q.admin, q.probe.sql('too_late')).expect(503);
      expect([refused.headers['retry-after'], refused.body]).toEqual(['5', { message }]);
      const download = await q.t
        .http()
        .post('/api/dataset/csv')
        .set(auth(q.admin))
        .send({ query: JSON.stringify({ database: q.db, type: 'native', native: { query: q.probe.sql('too_late') } }) })
        .expect(503);
      expect([download.headers['retry-after'], download.body]).toEqual(['5', { message }]);
      // Neither reached the warehouse: only the holder waits at the gate.
      expect(await q.queue()).toMatchObject({ numRunningQueries: 1, numQueuedQueries: 0 });
      expect([await q.probe.running('holder'), await q.probe.running('too_late')]).toEqual([1, 0]);

      await q.probe.open();
      expect((await holder).status).toBe(202);
    });
  });
});
