import { makeCard, nativeQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { auth, makeUserDirect, MadeUser } from '../support/factories';
import { probedApp } from '../support/probed-app';
import { until } from '../support/until';
import { availableEngines } from '../support/warehouses';

jest.setTimeout(120_000);

/** A probed app (probed-app.ts) serving its metrics, and its admission line as connection_pool_info shows it. */
async function admissionApp(env: Record<string, string>) {
  const app = await probedApp({ METRICS_PORT: '0', HOST: '127.0.0.1', ...env });
  const requests = async () => (await app.diagnostics())['query-requests'];
  return { ...app, requests };
}

type AdmissionApp = Awaited<ReturnType<typeof admissionApp>>;

/**
 * Past MAX_QUERY_REQUESTS_PER_USER a user's query requests wait, before any work, for that user's turn: fairly across
 * users, at most QUERY_QUEUE_TIMEOUT_SECONDS (then 503 with Retry-After), and a client that leaves leaves the line.
 */
describe.each(availableEngines(['postgres']).map((e) => [e]))('query requests of one user on a %s warehouse', () => {
  describe('with two worked on at once', () => {
    let q: AdmissionApp;
    let user: MadeUser;
    beforeAll(async () => {
      q = await admissionApp({ MAX_QUERY_REQUESTS_PER_USER: '2' });
      user = await makeUserDirect(q.t);
    });
    afterAll(async () => {
      await q?.close();
    });

    it("works on two of a burst at a time, answers them all, and works on another user's query at once", async () => {
      await q.probe.close();
      const tags = Array.from({ length: 6 }, (_, i) => `burst_${i}`);
      const burst = tags.map((tag, i) => q.ask(q.admin, q.probe.sql(tag, { select: `${i} AS i` })).then((r) => r));
      await until(async () => {
        const info = await q.requests();
        return info.numAdmittedRequests === 2 && info.numQueuedRequests === 4;
      });
      expect(await q.requests()).toEqual({
        numAdmittedRequests: 2,
        numQueuedRequests: 4,
        numQueuedUsers: 1,
        longestQueuedMs: expect.any(Number),
        maxRequestsPerUser: 2,
      });
      // Only two reached the warehouse; the others wait before any work, not for a query slot.
      const onWarehouse = async () => (await Promise.all(tags.map((tag) => q.probe.running(tag)))).reduce((a, b) => a + b, 0);
      await until(async () => (await onWarehouse()) === 2);
      expect((await q.diagnostics())['connection-pools'][`db-${q.db}`]).toMatchObject({ numQueuedQueries: 0 });
      expect(await q.metrics()).toContain('analytics_query_requests_waiting 4');

      const other = await q.ask(user.session, 'SELECT 7 AS seven').expect(202);
      expect(other.body.data.rows).toEqual([[7]]);
      expect(await q.requests()).toMatchObject({ numAdmittedRequests: 2, numQueuedRequests: 4 });

      await q.probe.open();
      const answers = await Promise.all(burst);
      expect(answers.map((a) => [a.status, a.body.status, a.body.data.rows])).toEqual(tags.map((_, i) => [202, 'completed', [[i]]]));
      await until(async () => (await q.requests()).numAdmittedRequests === 0);
      const after = await q.metrics();
      expect(after).toContain('analytics_query_requests_waiting 0');
      expect(Number(/analytics_query_request_wait_seconds_count\{outcome="ran"\} (\d+)/.exec(after)?.[1])).toBeGreaterThanOrEqual(7);
    });

    it('takes the request of a client that leaves out of the line: its query never reaches the warehouse', async () => {
      await Promise.all([q.probe.close(0), q.probe.close(1)]);
      const holders = [0, 1].map((i) => q.ask(q.admin, q.probe.sql(`hold_${i}`)).then((r) => r.status));
      await until(async () => (await q.requests()).numAdmittedRequests === 2);
      const leaving = q.ask(q.admin, q.probe.sql('left', { gate: 1 }));
      const left = leaving.then(
        () => 'answered',
        () => 'aborted',
      );
      await until(async () => (await q.requests()).numQueuedRequests === 1);
      leaving.abort();
      expect(await left).toBe('aborted');
      await until(async () => (await q.requests()).numQueuedRequests === 0);
      expect((await q.requests()).numAdmittedRequests).toBe(2);
      expect(await q.metrics()).toMatch(/analytics_query_request_wait_seconds_count\{outcome="left"\} 1\b/);

      // The holders end; a request sent after it reaches the second gate, and the one that left is not there.
      await q.probe.open(0);
      expect(await Promise.all(holders)).toEqual([202, 202]);
      const later = q.ask(q.admin, q.probe.sql('later', { gate: 1 })).then((r) => r.status);
      await until(async () => (await q.probe.running('later')) === 1);
      expect(await q.probe.running('left')).toBe(0);
      await q.probe.open(1);
      expect(await later).toBe(202);
      await until(async () => (await q.requests()).numAdmittedRequests === 0);
    });
  });

  describe('with one worked on at once and a one-second wait bound', () => {
    let q: AdmissionApp;
    beforeAll(async () => {
      q = await admissionApp({ MAX_QUERY_REQUESTS_PER_USER: '1', QUERY_QUEUE_TIMEOUT_SECONDS: '1' });
    });
    afterAll(async () => {
      await q?.close();
    });

    it('answers a request that waited its longest 503 with Retry-After, for ad-hoc, card and dashcard queries', async () => {
      const card = await makeCard(q.t, q.admin, nativeQuery(q.db, q.probe.sql('card')));
      const dash = await dashboardWith(q.t, q.admin, [card.id]);
      await q.probe.close();
      const holder = q.ask(q.admin, q.probe.sql('holder')).then((r) => r);
      await until(async () => (await q.requests()).numAdmittedRequests === 1);
      const message = 'Timed out waiting for a turn to run the query (waited 1 second). Try again shortly.';
      const refused = [
        await q.ask(q.admin, q.probe.sql('too_late')).expect(503),
        await q.t.http().post(`/api/card/${card.id}/query`).set(auth(q.admin)).send({}).expect(503),
        await q.t
          .http()
          .post(`/api/dashboard/${dash.id}/dashcard/${dash.dashcards[0].id}/card/${card.id}/query`)
          .set(auth(q.admin))
          .send({})
          .expect(503),
      ];
      expect(refused.map((r) => [r.headers['retry-after'], r.body])).toEqual(Array(3).fill(['5', { message }]));
      // None reached the warehouse: only the holder waits at the gate.
      expect([await q.probe.running('holder'), await q.probe.running('too_late'), await q.probe.running('card')]).toEqual([1, 0, 0]);
      expect(await q.metrics()).toMatch(/analytics_query_request_wait_seconds_count\{outcome="timed-out"\} 3\b/);

      await q.probe.open();
      expect((await holder).status).toBe(202);
    });
  });
});
