import { DataSource } from 'typeorm';
import { QueryLogService } from '../../src/modules/query-log/query-log.service';
import { grant, makeCard, makeCollection, makeMetric, makeModel, nativeQuery, tableQuery } from '../support/card-factories';
import { auth } from '../support/factories';
import { countQueries, STEADY_SETTINGS } from '../support/query-counter';
import { expect400, expect404 } from '../support/expect-wire';
import { toMbql5 } from '../support/mbql5';
import { SampleApp, startSampleApp } from '../support/sample-app';

jest.setTimeout(120_000);

/** GET /api/card/ with every `f` of the three releases, the collection items source, and a bounded number of app-DB queries. */
describe('cards: listing', () => {
  let s: SampleApp;
  let orders: number;
  let products: number;
  const http = () => s.t.http();
  const list = async (query: string, session = s.admin) =>
    ((await http().get(`/api/card${query}`).set(auth(session)).expect(200)).body as Array<{ id: number }>).map((c) => c.id);

  beforeAll(async () => {
    s = await startSampleApp(STEADY_SETTINGS);
    orders = s.table('ORDERS').id;
    products = s.table('PRODUCTS').id;
  });
  afterAll(() => s.t.close());

  it('lists by every filter', async () => {
    const onOrders = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { name: 'AAA "orders" \\ ü', description: 'Tab\tand \u2028' });
    const model = await makeModel(s.t, s.admin, tableQuery(s.db, products));
    const usesModel = await makeCard(
      s.t,
      s.user.session,
      toMbql5({ database: s.db, type: 'query', query: { 'source-table': `card__${model.id}`, aggregation: [['count']] } }),
    );
    const metric = await makeMetric(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['count']] }));
    const usesMetric = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { aggregation: [['metric', metric.id]] }));
    const usesSegment = await makeCard(s.t, s.admin, tableQuery(s.db, orders, { filter: ['segment', 77] }));
    const nativeTag = await makeCard(
      s.t,
      s.admin,
      nativeQuery(s.db, `SELECT * FROM {{#${model.id}}}`, {
        [`#${model.id}`]: { id: 't1', name: `#${model.id}`, 'display-name': 'M', type: 'card', 'card-id': model.id },
      }),
    );
    const archived = await makeCard(s.t, s.admin, tableQuery(s.db, orders));
    await http().put(`/api/card/${archived.id}`).set(auth(s.admin)).send({ archived: true }).expect(200);

    const all = await list('');
    expect(all).toEqual(
      expect.arrayContaining([onOrders.id, model.id, usesModel.id, metric.id, usesMetric.id, usesSegment.id, nativeTag.id]),
    );
    expect(all).not.toContain(archived.id);
    // Each listed card carries what GET /api/card/:id says of it (but the per-card extras: last edit, timings).
    const listed = (await http().get('/api/card/').set(auth(s.admin)).expect(200)).body.find((c: { id: number }) => c.id === onOrders.id);
    const one = (await http().get(`/api/card/${onOrders.id}?ignore_view=true`).set(auth(s.admin)).expect(200)).body;
    for (const key of [
      'name',
      'description',
      'dashboard_id',
      'display',
      'type',
      'dataset',
      'dataset_query',
      'visualization_settings',
      'parameters',
      'parameter_mappings',
      'result_metadata',
      'collection_id',
      'creator',
      'can_write',
    ]) {
      expect({ key, value: listed[key] }).toEqual({ key, value: one[key] });
    }
    expect(await list('?f=all')).toEqual(all);
    expect(await list('?f=archived')).toEqual([archived.id]);
    expect(await list('?f=mine', s.user.session)).toEqual([usesModel.id]);
    expect(await list(`?f=table&model_id=${orders}`)).toEqual(
      expect.arrayContaining([onOrders.id, metric.id, usesMetric.id, usesSegment.id]),
    );
    expect(await list(`?f=table&model_id=${orders}`)).not.toContain(model.id);
    expect(await list(`?f=database&model_id=${s.db}`)).toEqual(all);
    expect((await list(`?f=using_model&model_id=${model.id}`)).sort()).toEqual([usesModel.id, nativeTag.id].sort());
    expect(await list(`?f=using_metric&model_id=${metric.id}`)).toEqual([usesMetric.id]);
    expect(await list('?f=using_segment&model_id=77')).toEqual([usesSegment.id]);

    for (let i = 0; i < 3; i++) await http().get(`/api/card/${usesSegment.id}`).set(auth(s.admin)).expect(200);
    expect((await list('?f=popular'))[0]).toBe(usesSegment.id);
    // Recent: the cards the caller ran, latest first.
    await http().post(`/api/card/${metric.id}/query`).set(auth(s.admin)).send({}).expect(202);
    await s.t.app.get(QueryLogService).flush();
    await http().post(`/api/card/${onOrders.id}/query`).set(auth(s.admin)).send({}).expect(202);
    await s.t.app.get(QueryLogService).flush();
    expect(await list('?f=recent')).toEqual([onOrders.id, metric.id]);
    expect(await list('?f=recent', s.user.session)).toEqual([]);

    await http().post(`/api/bookmark/card/${onOrders.id}`).set(auth(s.admin)).expect(200);
    expect(await list('?f=bookmarked')).toEqual([onOrders.id]);
    expect(await list('?f=bookmarked', s.user.session)).toEqual([]);
    // Rewritten on every save: the query no longer uses the model.
    await http()
      .put(`/api/card/${usesModel.id}`)
      .set(auth(s.user.session))
      .send({ dataset_query: tableQuery(s.db, orders) })
      .expect(200);
    expect(await list(`?f=using_model&model_id=${model.id}`)).toEqual([nativeTag.id]);
    // Deleted for good: gone from bookmarks too.
    await http().delete(`/api/card/${onOrders.id}`).set(auth(s.admin)).expect(204);
    expect(await list('?f=bookmarked')).toEqual([]);
  });

  it('validates `f` and `model_id`', async () => {
    expect400(
      await http().get('/api/card?f=everything').set(auth(s.admin)),
      'f',
      'value must be one of: `all`, `mine`, `bookmarked`, `database`, `table`, `using_model`, `using_segment`, `using_metric`,' +
        ' `archived`, `popular`, `recent`.',
    );
    expect400(
      await http().get('/api/card?f=table&model_id=0').set(auth(s.admin)),
      'model_id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().get('/api/card?f=database&model_id=x').set(auth(s.admin)),
      'model_id',
      'value must be an integer greater than zero.',
    );
    expect400(
      await http().get('/api/card?f=database').set(auth(s.admin)),
      'model_id',
      "model_id is a required parameter when filter mode is 'database'",
    );
    expect404(await http().get('/api/card?f=database&model_id=9999').set(auth(s.admin)));
    expect404(await http().get('/api/card?f=table&model_id=99999').set(auth(s.admin)));
    expect404(await http().get('/api/card?f=using_model&model_id=99999').set(auth(s.admin)));
  });

  it('hydrates listings with creator, collection and can_write', async () => {
    const coll = await makeCollection(s.t, 'Listed');
    const card = await makeCard(s.t, s.admin, tableQuery(s.db, orders), { collection_id: coll });
    const listed = ((await http().get('/api/card').set(auth(s.admin)).expect(200)).body as Array<Record<string, unknown>>).find(
      (c) => c.id === card.id,
    );
    expect(listed).toMatchObject({
      can_write: true,
      creator: { email: 'admin@example.com', common_name: 'Ada Admin' },
      collection: { id: coll, name: 'Listed' },
      dataset: false,
      type: 'question',
      archived: false,
      dataset_query: tableQuery(s.db, orders),
    });
    const single = (await http().get(`/api/card/${card.id}?ignore_view=true`).set(auth(s.admin)).expect(200)).body;
    expect(listed!.created_at).toBe(single.created_at);
    expect(listed!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const model = await makeModel(s.t, s.user.session, toMbql5(tableQuery(s.db, orders)));
    const listedModel = ((await http().get('/api/card').set(auth(s.user.session)).expect(200)).body as Array<Record<string, unknown>>).find(
      (c) => c.id === model.id,
    );
    expect(listedModel).toMatchObject({
      type: 'model',
      dataset: true,
      can_write: true,
      collection: null,
      dataset_query: model.dataset_query as object,
      creator: { common_name: 'Dee Rect' },
    });
    // The user may not read the collection: the card is not listed to them.
    expect(
      ((await http().get('/api/card').set(auth(s.user.session)).expect(200)).body as Array<{ id: number }>).map((c) => c.id),
    ).not.toContain(card.id);
  });

  it('makes a bounded number of app-DB queries for GET /api/card/ and GET /api/card/:id, at 10 and at 1,000 cards', async () => {
    const db = s.t.app.get(DataSource);
    const q = JSON.stringify(tableQuery(s.db, orders));
    const colls = [await makeCollection(s.t), await makeCollection(s.t)];
    // All Users: read on one, nothing on the other, write on Root (the default).
    await grant(s.t, 1, colls[0], 'read');
    const adminId = (await http().get('/api/user/current').set(auth(s.admin)).expect(200)).body.id;
    const insert = async (n: number) => {
      for (let i = 0; i < n; i += 100) {
        const rows = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
          name: `Bulk ${i + j}`,
          display: 'table',
          dataset_query: q,
          visualization_settings: '{}',
          database_id: s.db,
          table_id: orders,
          query_type: 'query',
          creator_id: adminId,
          collection_id: j % 3 === 2 ? null : colls[j % 2],
        }));
        await db.createQueryBuilder().insert().into('report_card').values(rows).execute();
      }
    };
    const counted = async (session: string, path: string) => {
      // Counted warm: the caller's session row is read once and then cached for a while, in either phase.
      await http().get(path).set(auth(session)).expect(200);
      const counter = countQueries();
      try {
        await http().get(path).set(auth(session)).expect(200);
        return counter.count;
      } finally {
        counter.restore();
      }
    };
    const user = s.user.session;
    await insert(10);
    const firstId = Number((await db.query(`SELECT MAX(id) AS id FROM report_card WHERE collection_id = ${colls[0]}`))[0].id);
    const small = [await counted(s.admin, '/api/card'), await counted(user, '/api/card'), await counted(user, `/api/card/${firstId}`)];
    await insert(990);
    const large = [await counted(s.admin, '/api/card'), await counted(user, '/api/card'), await counted(user, `/api/card/${firstId}`)];
    expect(large).toEqual(small);
    expect(Math.min(...small)).toBeGreaterThan(0);
    expect(Math.max(...large)).toBeLessThan(15);
    expect(((await http().get('/api/card').set(auth(s.admin)).expect(200)).body as unknown[]).length).toBeGreaterThanOrEqual(1000);
  });
});
