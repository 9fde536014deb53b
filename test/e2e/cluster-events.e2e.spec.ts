import { DataSource } from 'typeorm';
import { ClusterEvents } from '../../src/common/cluster/cluster-events';
import { JobLeases } from '../../src/common/cluster/job-leases';
import { APP_DB } from '../support/app-db';
import { makeDashboard, newDashcard } from '../support/dashboard-factories';
import { auth, makeUser, setupAdmin } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';

/**
 * Two app instances on one app database. On Postgres a change through one reaches the other through the cluster
 * bus: polling is turned far down here (an hour), so only the event can make the other see it within a second.
 * On SQLite (one instance in production) the bus is in-process only: the other instance sees changes by polling.
 */
describe('changes seen by another instance on the same app DB', () => {
  const pg = APP_DB === 'postgres';
  const env = { SETTINGS_REFRESH_SECONDS: pg ? '3600' : '1' };
  let a: TestApp;
  let b: TestApp;
  let admin: string;

  beforeAll(async () => {
    a = await startTestApp(env);
    admin = await setupAdmin(a);
    b = await startTestApp(env, a);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** Milliseconds until `check` holds on the other instance. */
  const seenWithin = async (check: () => Promise<boolean>, ms: number): Promise<number> => {
    const start = performance.now();
    await until(check, ms);
    return performance.now() - start;
  };

  it('listens on Postgres only', () => {
    expect(a.app.get(ClusterEvents).live).toBe(pg);
    expect(b.app.get(ClusterEvents).live).toBe(pg);
  });

  it('puts a setting changed through one instance in force on the other within a second (Postgres)', async () => {
    expect((await b.http().get('/api/setting/site-name').set(auth(admin)).expect(200)).body).toBe('Test Co');
    await a.http().put('/api/setting/site-name').set(auth(admin)).send({ value: 'Renamed on A' }).expect(204);
    const ms = await seenWithin(
      async () => (await b.http().get('/api/setting/site-name').set(auth(admin))).body === 'Renamed on A',
      pg ? 1_000 : 30_000,
    );
    if (pg) console.log(`setting seen on the other instance after ${ms.toFixed(1)} ms (includes one request)`);
  });

  it('applies a permission granted through one instance on the other within a second (Postgres)', async () => {
    const user = await makeUser(a, admin);
    await b.http().get('/api/permissions/group').set(auth(user.session)).expect(403);
    await a.http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: 2, user_id: user.id }).expect(200);
    await seenWithin(
      async () => (await b.http().get('/api/permissions/group').set(auth(user.session))).status === 200,
      pg ? 1_000 : 30_000,
    );
  });

  it('ends a session logged out through one instance on the other within a second (Postgres), and a deactivated user’s too', async () => {
    const user = await makeUser(a, admin);
    const other = await makeUser(a, admin);
    // Both sessions are now in B's caller cache.
    await b.http().get('/api/user/current').set(auth(user.session)).expect(200);
    await b.http().get('/api/user/current').set(auth(other.session)).expect(200);
    const refused = (session: string) => async () => (await b.http().get('/api/user/current').set(auth(session))).status === 401;
    await a.http().delete('/api/session').set(auth(user.session)).expect(204);
    const ms = await seenWithin(refused(user.session), pg ? 1_000 : 30_000);
    if (pg) console.log(`logout seen on the other instance after ${ms.toFixed(1)} ms (includes one request)`);
    await b.http().get('/api/user/current').set(auth(other.session)).expect(200);
    await a.http().delete(`/api/user/${other.id}`).set(auth(admin)).expect(200);
    await seenWithin(refused(other.session), pg ? 1_000 : 30_000);
  });

  it('shows a user changed through one instance in the other’s GET /api/user/current within a second (Postgres)', async () => {
    const user = await makeUser(a, admin);
    const current = () => b.http().get('/api/user/current').set(auth(user.session));
    expect((await current().expect(200)).body.first_name).toBe('Uma'); // now kept by B
    await a.http().put(`/api/user/${user.id}`).set(auth(admin)).send({ first_name: 'Renamed' }).expect(200);
    await seenWithin(async () => (await current()).body.first_name === 'Renamed', pg ? 1_000 : 30_000);
    await a.http().post('/api/permissions/membership').set(auth(admin)).send({ group_id: 2, user_id: user.id }).expect(200);
    await seenWithin(async () => (await current()).body.group_ids?.includes(2) === true, pg ? 1_000 : 30_000);
  });

  it('shows a dashboard’s tabs and dashcards changed through one instance in the other’s views within a second (Postgres)', async () => {
    const d = await makeDashboard(a, admin);
    // The layout (no tabs, no dashcards) is now in B's cache.
    expect((await b.http().get(`/api/dashboard/${d.id}`).set(auth(admin)).expect(200)).body).toMatchObject({ tabs: [], dashcards: [] });
    const text = { virtual_card: { display: 'text' }, text: 'Hello' };
    await a
      .http()
      .put(`/api/dashboard/${d.id}`)
      .set(auth(admin))
      .send({
        tabs: [{ id: -1, name: 'First' }],
        dashcards: [newDashcard(-1, null, { dashboard_tab_id: -1, visualization_settings: text })],
      })
      .expect(200);
    const changed = async () => {
      const got = (await b.http().get(`/api/dashboard/${d.id}`).set(auth(admin))).body as { tabs: unknown[]; dashcards: unknown[] };
      return got.tabs.length === 1 && got.dashcards.length === 1;
    };
    await seenWithin(changed, pg ? 1_000 : 30_000);
  });

  it('hands a job lease to the other instance once the holder’s runs out, never to both', async () => {
    const onA = a.app.get(JobLeases);
    const onB = b.app.get(JobLeases);
    expect(onA.holder).not.toBe(onB.holder);
    const name = `test-job-${Date.now()}`;
    const now = Date.now();
    const claims = await Promise.all([onA.claim(name, 10_000, now), onB.claim(name, 10_000, now)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const [holder, waiter] = claims[0] ? [onA, onB] : [onB, onA];
    expect(await waiter.claim(name, 10_000, now + 9_999)).toBe(false);
    // The holder "dies": its lease runs out without being renewed, and the other takes it over.
    expect(await waiter.claim(name, 10_000, now + 10_000)).toBe(true);
    expect(await holder.renew(name, 10_000, now + 10_001)).toBe(false);
    await waiter.release(name);
    expect(await new JobLeases(a.app.get(DataSource), 'third').claim(name, 1_000)).toBe(true);
  });
});
