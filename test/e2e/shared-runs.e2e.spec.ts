import { makeCard, makeGroup, nativeQuery } from '../support/card-factories';
import { dashboardWith } from '../support/dashboard-factories';
import { e2eWarehouse, type E2eWarehouse } from '../support/e2e-warehouses';
import { auth, makeUserDirect, MadeUser, setupAdmin } from '../support/factories';
import { pgProbe, type PgProbe } from '../support/pg-probe';
import { waitForIdle } from '../support/sync-runs';
import { waitForSync } from '../support/sync-wait';
import { startTestApp, TestApp } from '../support/test-app';
import { until } from '../support/until';
import { availableEngines } from '../support/warehouses';
import { cardToken, embeddable, setEmbedding } from './embed-helpers';

jest.setTimeout(120_000);

/**
 * Identical queries in flight share one warehouse run: counted on the warehouse, where every probe query waits at a
 * closed gate until the test opens it (pg-probe.ts), so all the callers are in before any run can end.
 */
describe.each(availableEngines(['postgres']).map((e) => [e]))('one run for identical queries on a %s warehouse', () => {
  let t: TestApp;
  let admin: string;
  let wh: E2eWarehouse;
  let probe: PgProbe;
  let db: number;
  let users: MadeUser[];

  const ask = (session: string, sql: string) =>
    t
      .http()
      .post('/api/dataset')
      .set(auth(session))
      .send({ database: db, type: 'native', native: { query: sql } });
  const pool = async () =>
    (await t.http().get('/api/util/diagnostic_info/connection_pool_info').set(auth(admin)).expect(200)).body['connection-pools'][
      `db-${db}`
    ];
  /** Until `readers` queries read `runs` runs in flight, each run held at the gate on the warehouse. */
  const inFlight = (runs: number, readers: number) =>
    until(async () => {
      const info = await pool();
      return info?.numSharedRuns === runs && info.numQueriesOnSharedRuns === readers;
    });
  const rowsOf = (answers: Array<{ status: number; body: { data: { rows: unknown[][] } } }>) =>
    answers.map((a) => [a.status, a.body.data.rows]);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    wh = await e2eWarehouse('postgres', t.config.dataDir, {
      statements: [
        'CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL)',
        'INSERT INTO orders VALUES (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2), (7, 2), (8, 2)',
      ],
    });
    db = (
      await t.http().post('/api/database').set(auth(admin)).send({ engine: 'postgres', name: 'Shared', details: wh.details }).expect(200)
    ).body.id;
    await waitForSync(t, admin, db);
    await waitForIdle(t, db);
    probe = await pgProbe(wh);
    users = [await makeUserDirect(t), await makeUserDirect(t), await makeUserDirect(t)];
    // The third user has other permissions than the first two: one group more.
    await makeGroup(t, admin, users[2].id);
  });
  afterAll(async () => {
    await probe?.end();
    await t?.close();
    await wh?.drop();
  });
  afterEach(() => probe.open());

  it('runs identical queries in flight once on the warehouse, and answers every caller with its rows', async () => {
    await probe.close();
    const answers = Promise.all([1, 2, 3, 4, 5].map(() => ask(admin, probe.sql('same', { select: '42 AS answer' })).then((r) => r)));
    await inFlight(1, 5);
    await until(async () => (await probe.running('same')) === 1);
    await probe.open();
    expect(rowsOf(await answers)).toEqual([1, 2, 3, 4, 5].map(() => [202, [[42]]]));
  });

  it('shares a run only between callers of the same permissions', async () => {
    await probe.close();
    const callers = [admin, users[0].session, users[1].session, users[2].session];
    const send = (session: string) => ask(session, probe.sql('perms', { select: '1 AS n' })).then((r) => r);
    // The first user's run is under way before the second asks: a run still waiting for its query slot is joined
    // only by its owner's queries, and two requests of one instant could both find the other's run waiting.
    const first = [send(admin), send(users[0].session)];
    await inFlight(2, 2);
    const answers = Promise.all([...first, send(users[1].session), send(users[2].session)]);
    // The admin's run, the run of the two users of the same groups, and the third user's.
    await inFlight(3, 4);
    await until(async () => (await probe.running('perms')) === 3);
    await probe.open();
    expect(rowsOf(await answers)).toEqual(callers.map(() => [202, [[1]]]));
  });

  it('keeps the run going for the others when one caller leaves, and cancels it on the warehouse when the last one does', async () => {
    await probe.close();
    const leaving = ask(admin, probe.sql('one_leaves'));
    const left = leaving.then(
      () => 'answered',
      () => 'aborted',
    );
    const staying = Promise.all([1, 2].map(() => ask(admin, probe.sql('one_leaves')).then((r) => r)));
    await inFlight(1, 3);
    leaving.abort();
    expect(await left).toBe('aborted');
    await inFlight(1, 2);
    await until(async () => (await probe.running('one_leaves')) === 1);
    await probe.open();
    expect(rowsOf(await staying)).toEqual([
      [202, [[1]]],
      [202, [[1]]],
    ]);

    await probe.close();
    const all = [1, 2].map(() => ask(admin, probe.sql('all_leave')));
    const gone = all.map((r) =>
      r.then(
        () => 'answered',
        () => 'aborted',
      ),
    );
    await inFlight(1, 2);
    await until(async () => (await probe.running('all_leave')) === 1);
    all.forEach((r) => r.abort());
    expect(await Promise.all(gone)).toEqual(['aborted', 'aborted']);
    // Cancelled on the warehouse while the gate is still closed, and its query slot given back.
    await until(async () => (await probe.running('all_leave')) === 0);
    await until(async () => (await pool()).numRunningQueries === 0);
    expect(await pool()).toMatchObject({ numSharedRuns: 0, numQueriesOnSharedRuns: 0 });
  });

  it('shares runs on every path: card, dashcard, public link and embed queries', async () => {
    const card = await makeCard(t, admin, nativeQuery(db, probe.sql('paths', { select: '5 AS five' })));
    const dashboard = await dashboardWith(t, admin, [card.id]);
    await t.http().put('/api/setting/enable-public-sharing').set(auth(admin)).send({ value: true }).expect(204);
    const uuid = (await t.http().post(`/api/card/${card.id}/public_link`).set(auth(admin)).expect(200)).body.uuid;
    await setEmbedding(t, admin);
    await embeddable(t, admin, 'card', card.id, {});

    await probe.close();
    const cardQuery = () => t.http().post(`/api/card/${card.id}/query`).set(auth(admin)).send({});
    const dashcardQuery = () =>
      t
        .http()
        .post(`/api/dashboard/${dashboard.id}/dashcard/${dashboard.dashcards[0].id}/card/${card.id}/query`)
        .set(auth(admin))
        .send({ parameters: [] });
    const publicQuery = () => t.http().get(`/api/public/card/${uuid}/query`);
    const embedQuery = () => t.http().get(`/api/embed/card/${cardToken(card.id)}/query`);
    const answers = Promise.all(
      [cardQuery, cardQuery, dashcardQuery, dashcardQuery, publicQuery, publicQuery, publicQuery, embedQuery, embedQuery].map((q) =>
        q().then((r) => r),
      ),
    );
    // The admin's run (card and dashcard queries), the public link's, and the embed's.
    await inFlight(3, 9);
    await until(async () => (await probe.running('paths')) === 3);
    await probe.open();
    expect(rowsOf(await answers)).toEqual(Array.from({ length: 9 }, () => [202, [[5]]]));
  });

  it("shares a run between users of the same policy and attribute, never with another attribute's rows", async () => {
    const meta = (await t.http().get(`/api/database/${db}/metadata`).set(auth(admin)).expect(200)).body as {
      tables: Array<{ id: number; name: string }>;
    };
    const orders = meta.tables.find((x) => x.name === 'orders')!.id;
    const group = (await t.http().post('/api/permissions/group').set(auth(admin)).send({ name: 'Policy group' }).expect(200)).body
      .id as number;
    const graph = (await t.http().get('/api/permissions/graph').set(auth(admin)).expect(200)).body;
    graph.groups = {
      1: { [db]: { data: 'no', native: 'none' } },
      [group]: { [db]: { data: 'unrestricted', native: 'write' } },
    };
    await t.http().put('/api/permissions/graph').set(auth(admin)).send(graph).expect(200);
    // The policy's question waits at the probe's gate, so each run stays in flight, countable on the warehouse.
    const policyCard = await makeCard(t, admin, {
      database: db,
      type: 'native',
      native: {
        query: `SELECT o.id, o.user_id FROM orders o WHERE o.user_id IN ({{uid}}) AND EXISTS (${probe.sql('policy')})`,
        'template-tags': { uid: { id: 'uid', name: 'uid', 'display-name': 'User', type: 'number', default: '1' } },
      },
    });
    await t
      .http()
      .post('/api/mt/gtap')
      .set(auth(admin))
      .send({
        group_id: group,
        table_id: orders,
        card_id: policyCard.id,
        attribute_remappings: { uid: ['variable', ['template-tag', 'uid']] },
      })
      .expect(200);
    const member = () => makeUserDirect(t, { group_ids: [group] });
    const [one, alsoOne, two] = [await member(), await member(), await member()];
    for (const [u, uid] of [
      [one, '1'],
      [alsoOne, '1'],
      [two, '2'],
    ] as const) {
      await t.http().put(`/api/user/${u.id}`).set(auth(admin)).send({ login_attributes: { uid } }).expect(200);
    }
    const count = (u: MadeUser) =>
      t
        .http()
        .post('/api/dataset')
        .set(auth(u.session))
        .send({ database: db, type: 'query', query: { 'source-table': orders, aggregation: [['count']] } })
        .then((r) => r);

    await probe.close();
    const first = count(one);
    await inFlight(1, 1);
    await until(async () => (await probe.running('policy')) === 1);
    // The same policy and the same attribute value: the run under way.
    const second = count(alsoOne);
    await inFlight(1, 2);
    // Another value of the attribute: a run of its own.
    const third = count(two);
    await inFlight(2, 3);
    await until(async () => (await probe.running('policy')) === 2);
    await probe.open();
    const answers = await Promise.all([first, second, third]);
    expect(answers.map((a) => [a.status, a.body.status, a.body.data?.rows])).toEqual([
      [202, 'completed', [[3]]],
      [202, 'completed', [[3]]],
      [202, 'completed', [[5]]],
    ]);
  });
});
